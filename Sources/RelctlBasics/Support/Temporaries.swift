import Foundation

/// The one naming scheme of every temporary file and folder relctl creates: `BASE.relctl-tmp-PID-RANDOM`
/// (hidden siblings of output files start with a dot: `.NAME.sha256.relctl-tmp-4242-9f1c03aa`).
/// The pid says whose it is, so a later run can tell a killed run's leftovers (its process is gone)
/// from a live run's work in progress, and reclaim only the former.
package enum Temporaries {
    package static let marker = ".relctl-tmp-"

    /// `BASE.relctl-tmp-PID-RANDOM`, with this process's pid. A name holds at most 255 bytes;
    /// when BASE is too long for the suffix (a 242-byte archive name that itself fits), BASE is
    /// cut (at a character boundary): it only hints at what the temporary is for.
    package static func name(_ base: String) -> String {
        let suffix = marker + "\(getpid())-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
        var kept = base
        while kept.utf8.count + suffix.utf8.count > maximumNameBytes, !kept.isEmpty { kept.removeLast() }
        return kept + suffix
    }

    /// The longest file name Linux, macOS and the BSDs allow, in bytes.
    package static let maximumNameBytes = 255

    /// A temporary folder in `$TMPDIR`: `relctl-WHAT.relctl-tmp-PID-RANDOM`.
    package static func scratchURL(_ what: String) -> URL {
        FileSystem.temporaryDirectory.appendingPathComponent(name("relctl-" + what))
    }

    /// The pid of the process that made a temporary named by the scheme, or nil for any other name.
    package static func owner(of name: String) -> Int32? {
        guard let range = name.range(of: marker, options: .backwards) else { return nil }
        let parts = name[range.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let pid = Int32(parts[0]), pid > 0, !parts[1].isEmpty,
            parts[1].allSatisfy(\.isHexDigit)
        else { return nil }
        return pid
    }

    /// True when `pid` is not a live process on this host (gone, or a zombie nobody reaped).
    package static func isGone(_ pid: Int32) -> Bool {
        guard pid != getpid() else { return false }
        if kill(pid, 0) != 0 && errno == ESRCH { return true }
        return isZombie(pid)
    }

    /// A killed process whose parent died too stays a zombie until something reaps it, and some
    /// container inits never do; it has exited all the same.
    package static func isZombie(_ pid: Int32) -> Bool {
        guard let state = ProcessStart.statFields(of: String(pid))?.first else { return false }
        return state == "Z" || state == "X"
    }

    /// Removes the temporaries in `directory` (not below it) whose process is gone: what killed
    /// runs left. A live process's temporaries are never touched. With `prefix`, only names that
    /// start with it (`relctl-` in `$TMPDIR`, which other programs share). Returns the names removed.
    @discardableResult
    package static func reclaim(in directory: URL, prefix: String = "", console: Console? = nil) -> [String] {
        // Only the temporaries are kept from the listing: a dist folder of 100,000 archives is
        // not 100,000 names held at once (issue 31).
        var candidates: [String] = []
        try? FileSystem.forEachName(in: directory) { name in
            if name.hasPrefix(prefix), owner(of: name) != nil { candidates.append(name) }
        }
        var removed: [String] = []
        for name in candidates.sorted() {
            guard let pid = owner(of: name), isGone(pid) else { continue }
            if (try? FileSystem.remove(directory.appendingPathComponent(name))) != nil {
                removed.append(name)
            }
        }
        if let console, !removed.isEmpty {
            let shown = removed.prefix(5).joined(separator: ", ") + (removed.count > 5 ? ", …" : "")
            console.detail(
                "removed \(removed.count) temporary file(s) that killed relctl runs left in \(directory.path): \(shown)"
            )
        }
        return removed
    }

    /// Reclaims killed runs' scratch folders and files in `$TMPDIR` (dry-run clones, stage folders,
    /// tag messages).
    @discardableResult
    package static func reclaimScratch(console: Console? = nil) -> [String] {
        reclaim(in: FileSystem.temporaryDirectory, prefix: "relctl-", console: console)
    }

    /// Writes `text` to a new file in `$TMPDIR` (a message for `git tag -F`), registered for cleanup.
    package static func writeScratchFile(_ what: String, _ text: String) throws -> URL {
        let url = scratchURL(what)
        let descriptor = CleanupRegistry.shared.create(url, mode: 0o600)
        guard descriptor >= 0 else {
            throw FileSystemError(path: url.path, action: "cannot create", errno: errno)
        }
        do {
            try AtomicFile.writeAll(Data(text.utf8), to: descriptor, reportedAs: url)
            close(descriptor)
        } catch {
            removeScratchFile(url)
            throw error
        }
        return url
    }

    package static func removeScratchFile(_ url: URL) {
        unlink(url.path)
        CleanupRegistry.shared.unregister(url)
    }
}
