import Foundation
import RelctlBasics
import RelctlModel

/// Where a release's stages run. A real release works in the project, writing into a staging
/// folder inside dist/ under the repository lock. A dry run works in a scratch clone of the
/// commit, so it builds, packages and even tags for real while the project stays untouched.
final class ReleaseWorkspace {
    /// The config rooted where the stages work.
    let config: RelctlConfig
    let context: Context
    /// Where stages write.
    let stagingDirectory: URL
    /// dist/ of the tree the stages work in.
    let distDirectory: URL
    /// The scratch folder of a dry run.
    let scratch: URL?
    /// The release lock (nil on a dry run).
    let lock: ReleaseLock?
    /// The `InterruptActions` id that removes a dist/ this release created, if still empty.
    private var emptyDistGuard: Int?

    private init(
        config: RelctlConfig, context: Context, stagingDirectory: URL, distDirectory: URL, scratch: URL?,
        lock: ReleaseLock?
    ) {
        self.config = config
        self.context = context
        self.stagingDirectory = stagingDirectory
        self.distDirectory = distDirectory
        self.scratch = scratch
        self.lock = lock
    }

    /// The project itself, locked (`heldLock`, taken over from a killed release, or taken now);
    /// output is staged in `dist/.relctl-staging-TAG.relctl-tmp-PID-RANDOM/`.
    static func project(
        config: RelctlConfig, context: Context, tag: String, commit: String? = nil, lockFile: URL,
        heldLock: ReleaseLock? = nil, onStale: (ReleaseLock.Holder) -> Void
    ) throws -> ReleaseWorkspace {
        let lock: ReleaseLock
        if let heldLock {
            lock = heldLock
            lock.record { $0.commit = $0.commit ?? commit }
        } else {
            lock = try ReleaseLock.acquire(
                at: lockFile, tag: tag, commit: commit, clock: context.clock, onStale: onStale)
        }
        let dist = config.distDirectory
        let staging = dist.appendingPathComponent(Temporaries.name(".relctl-staging-\(fileNamePart(tag))"))
        // Holding the lock, any other staging folder is a leftover of a killed release.
        for name in (try? FileSystem.names(in: dist)) ?? []
        where name.hasPrefix(".relctl-staging-") {
            try? FileSystem.remove(dist.appendingPathComponent(name))
        }
        Temporaries.reclaim(in: dist, console: context.console)
        Temporaries.reclaimScratch(console: context.console)
        // On Ctrl-C the staging folder goes; a dist/ made only to hold it must go too (rmdir
        // removes nothing else: once files are published it is not empty).
        let distPath = dist.path
        let emptyDistGuard =
            FileSystem.exists(atPath: distPath)
            ? nil : InterruptActions.shared.add { FileSystem.removeEmptyFolder(atPath: distPath) }
        do {
            try FileSystem.createDirectory(dist)
            try CleanupRegistry.shared.makeDirectory(staging)
        } catch {
            lock.release()
            if let emptyDistGuard { InterruptActions.shared.remove(emptyDistGuard) }
            // Wrapped, not re-described: the door's error carries the errno text ("Read-only file
            // system"), which Foundation's localizedDescription of it would lose.
            throw FileSystemError(error, path: staging.path, action: "cannot create the staging folder")
        }
        var rooted = context
        rooted.workingDirectory = config.root
        let workspace = ReleaseWorkspace(
            config: config, context: rooted, stagingDirectory: staging, distDirectory: dist, scratch: nil, lock: lock)
        workspace.emptyDistGuard = emptyDistGuard
        return workspace
    }

    /// A scratch clone of `commit` in a temporary folder, with the project's git identity so
    /// the tag can be made (and signed) there.
    static func scratch(
        config: RelctlConfig, context: Context, topLevel: URL, commit: String, tag: String,
        settings: [(key: String, value: String)], kept: Bool = false
    ) async throws -> ReleaseWorkspace {
        Temporaries.reclaimScratch(console: context.console)
        // A folder the user asked to keep (`--keep`) is output, not a temporary: its name is
        // outside the temporary scheme, so no later run reclaims it once this process is gone.
        let scratch =
            kept
            ? FileSystem.temporaryDirectory.appendingPathComponent(
                "relctl-dry-run-\(fileNamePart(tag))-kept-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))")
            : Temporaries.scratchURL("dry-run-\(fileNamePart(tag))")
        try CleanupRegistry.shared.makeDirectory(scratch)
        let clone = scratch.appendingPathComponent(topLevel.lastPathComponent)
        do {
            let source = Git(directory: topLevel, context: context)
            // A remote given as a relative path is relative to the project, not to the clone.
            let borrowed = settings.map {
                (
                    key: $0.key,
                    value: $0.key.hasPrefix("remote.") ? PushStage.absolute($0.value, base: topLevel) : $0.value
                )
            }
            _ = try await source.scratchClone(to: clone, commit: commit, settings: borrowed)
        } catch {
            try? FileSystem.remove(scratch)
            CleanupRegistry.shared.unregister(scratch)
            throw error
        }
        // Warm, not shared: the project's build cache copied in, unchanged files' times kept.
        await DryRunCache.warm(clone: clone, top: topLevel, project: config.root, commit: commit, context: context)
        let relative = Self.relativePath(of: config.root, under: topLevel)
        let root = relative.isEmpty ? clone : clone.appendingPathComponent(relative)
        var rooted = config
        rooted.root = root
        var scratchContext = context
        scratchContext.workingDirectory = root
        let dist = root.appendingPathComponent("dist")
        return ReleaseWorkspace(
            config: rooted, context: scratchContext, stagingDirectory: dist, distDirectory: dist, scratch: scratch,
            lock: nil)
    }

    /// What a scratch clone borrows from the project's config: the git identity and signing setup,
    /// so the tag can be made (and signed) there; the remotes, which would otherwise point at the
    /// project folder (the notes would lose the links the real run derives from the remote); and
    /// URL rewriting rules, so a dry-run push goes where the real one would. The preflight reads
    /// them with one `git config` call.
    static let borrowedSettings =
        #"^(user\.(name|email|signingkey)|gpg\.(format|program|ssh\.program|ssh\.allowedsignersfile)|remote\..*\.url|url\..*\.(insteadof|pushinsteadof))$"#

    /// Removes the staging folder (and the scratch clone unless kept) and releases the lock.
    func close(keep: Bool) {
        if let scratch {
            if !keep { try? FileSystem.remove(scratch) }
            CleanupRegistry.shared.unregister(scratch)
        } else {
            try? FileSystem.remove(stagingDirectory)
            CleanupRegistry.shared.unregister(stagingDirectory)
            // An empty dist/ created only for staging is not worth leaving behind.
            if let left = try? FileSystem.names(in: distDirectory), left.isEmpty {
                try? FileSystem.remove(distDirectory)
            }
        }
        if let emptyDistGuard { InterruptActions.shared.remove(emptyDistGuard) }
        lock?.release()
    }

    /// The tag as one path component: a tag format such as `release/{version}` must not nest
    /// folders, and a tag too long to release (refused by the preflight) must not make the dry
    /// run's scratch folder name too long to create before the plan can say so.
    static func fileNamePart(_ tag: String) -> String {
        var part = String(tag.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" })
        while part.utf8.count > TagValidator.maximumTagLength { part.removeLast() }
        return part
    }

    /// Where the project folder lies in the repository, to find it again in a scratch clone.
    /// Both paths are the user's own places (the config's folder, git's top level), never a path
    /// from configuration or a release, and nothing is read or written through them here: full
    /// link resolution is the point (a project reached through a link to the checkout must still
    /// be found), so this is not `ConfinedPath.resolveInside`, which would refuse that link. The
    /// result holds no link (resolved) and the clone is of the same clean commit, so joining it
    /// to the clone's root stays inside the clone; a project not below the top gives "" (the root).
    static func relativePath(of url: URL, under base: URL) -> String {
        let path = url.resolvingSymlinksInPath().path
        let top = base.resolvingSymlinksInPath().path
        return path.hasPrefix(top + "/") ? String(path.dropFirst(top.count + 1)) : ""
    }
}

/// Whether the release's workspace (lock or scratch clone) could be set up.
enum WorkspaceOpening {
    case opened(ReleaseWorkspace)
    case failed(any RelctlError)
}
