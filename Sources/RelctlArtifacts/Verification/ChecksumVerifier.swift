import Foundation
import RelctlBasics
import RelctlModel

/// `relctl verify`: re-hashes every file a checksum file lists (GNU or BSD lines, SHA-256 or
/// SHA-512) and looks for archives next to it that it does not list.
public enum ChecksumVerifier {
    /// Verifies `sums` (a path as the user gave it). Malformed lines are bad input (exit 2); the
    /// report says which files are `ok`, `changed`, `missing` or `unlisted`. Unlisted archives are
    /// only looked for next to a combined file (`*SUMS`), not a single `NAME.sha256`, and fail
    /// the check unless `allowUnlisted`.
    public static func verify(
        sums: String, allowUnlisted: Bool = false, context: Context, jobs: Int? = nil
    ) async throws -> VerifyReport {
        let url = context.resolve(sums)
        let list = try ChecksumFile.read(url, displayPath: sums)
        let directory = url.deletingLastPathComponent()
        guard !list.entries.isEmpty else {
            throw ChecksumError.emptyList(path: sums)
        }

        // Only files inside the checksum file's folder are read: a list naming `../x` or `/etc/x`
        // must not make relctl read (and print the digest of) whatever an attacker names.
        let outside = list.entries.filter { !Self.staysInside($0.name) }
        if !outside.isEmpty {
            throw ProblemList(
                exitCode: .badInput,
                diagnostics: outside.map { entry in
                    Diagnostic(
                        file: sums, line: entry.line,
                        "names `\(entry.name)`, outside this folder; relctl verify reads only files next to \(url.lastPathComponent)"
                    )
                })
        }
        let targets = list.entries.map { directory.appendingPathComponent($0.name) }
        // A folder (or device) where a listed file should be is reported per file like a missing
        // one, not as an error that hides every other file's result.
        let present = list.entries.indices.filter { FileKind.isRegularFile(targets[$0].path) }
        let algorithms = Set(list.entries.map(\.algorithm))
        let digests = try await FileHasher.digests(of: present.map { targets[$0] }, algorithms: algorithms, jobs: jobs)
        var actual: [Int: FileDigest] = [:]
        for (index, digest) in zip(present, digests) { actual[index] = digest }

        var files: [VerifiedFile] = list.entries.indices.map { index in
            let entry = list.entries[index]
            guard let digest = actual[index] else {
                return VerifiedFile(
                    name: entry.name, status: .missing, algorithm: entry.algorithm, expected: entry.digest,
                    line: entry.line)
            }
            let now = digest[entry.algorithm]
            return VerifiedFile(
                name: entry.name, status: now == entry.digest ? .ok : .changed, algorithm: entry.algorithm,
                expected: entry.digest, actual: now, line: entry.line)
        }

        if isCombined(url.lastPathComponent) {
            let listed = Set(targets.map(\.standardizedFileURL.path))
            let algorithm = list.entries[0].algorithm
            for name in ChecksumWriter.archives(in: directory)
            where !listed.contains(directory.appendingPathComponent(name).standardizedFileURL.path) {
                files.append(VerifiedFile(name: name, status: .unlisted, algorithm: algorithm))
            }
        }
        let stale = isCombined(url.lastPathComponent) ? staleSidecars(of: list, targets: targets, actual: actual) : []
        let ok = stale.isEmpty && files.allSatisfy { $0.status == .ok || ($0.status == .unlisted && allowUnlisted) }
        return VerifyReport(file: sums, files: files, ok: ok, unlistedAllowed: allowUnlisted, staleSidecars: stale)
    }

    /// The report for a project whose releases are tags only (a relctl.toml with no `[[target]]`)
    /// when the default checksum file is absent: such a release writes no archive and no list, so
    /// there is nothing to verify and that is not a failure. Nil otherwise (verify as usual).
    public static func tagOnlyReport(sums: String, config: RelctlConfig, context: Context) -> VerifyReport? {
        guard config.releasesTagsOnly, !FileSystem.exists(context.resolve(sums)) else { return nil }
        return VerifyReport(file: sums, files: [], ok: true, unlistedAllowed: false)
    }

    /// Sidecars next to hashed archives whose digest is not the archive's; an unreadable or
    /// malformed one counts as stale.
    package static func staleSidecars(of list: ChecksumFile, targets: [URL], actual: [Int: FileDigest]) -> [String] {
        var stale: [String] = []
        for (index, entry) in list.entries.enumerated() {
            guard let digest = actual[index] else { continue }
            let sidecar = targets[index].appendingToName(entry.algorithm.fileExtension)
            guard FileSystem.exists(sidecar) else { continue }
            let lines = (try? ChecksumFile.read(sidecar))?.entries ?? []
            let own = lines.first {
                $0.name.lastPathComponent == targets[index].lastPathComponent
            }
            if own?.digest != digest[entry.algorithm] { stale.append(entry.name + entry.algorithm.fileExtension) }
        }
        return stale
    }

    /// A relative name with no `..` component: it cannot leave the folder it is read from.
    package static func staysInside(_ name: String) -> Bool {
        !name.hasPrefix("/") && !name.split(separator: "/", omittingEmptySubsequences: false).contains("..")
    }

    /// `SHA256SUMS`, `sha256sums.txt`, `checksums.txt`: anything but a per-archive `NAME.sha256`.
    package static func isCombined(_ fileName: String) -> Bool {
        !ChecksumAlgorithm.allCases.contains { fileName.hasSuffix($0.fileExtension) }
    }
}

/// The result of checking one file named in (or missing from) a checksum file.
public struct VerifiedFile: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        /// Hashes to the listed digest.
        case ok
        /// Present but hashes to something else.
        case changed
        /// Listed but not on disk.
        case missing
        /// An archive in the folder that the checksum file does not list.
        case unlisted
    }

    public var name: String
    public var status: Status
    package var algorithm: ChecksumAlgorithm
    /// The listed digest (nil for unlisted files).
    package var expected: String?
    /// The digest now on disk (nil for missing files).
    package var actual: String?
    /// The line in the checksum file (nil for unlisted files).
    package var line: Int?
}
