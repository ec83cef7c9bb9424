import Foundation

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
    public var algorithm: ChecksumAlgorithm
    /// The listed digest (nil for unlisted files).
    public var expected: String?
    /// The digest now on disk (nil for missing files).
    public var actual: String?
    /// The line in the checksum file (nil for unlisted files).
    public var line: Int?
}

/// The `relctl verify --json` document.
public struct VerifyReport: Codable, Sendable, Equatable {
    /// The checksum file checked, as the user named it.
    public var file: String
    public var files: [VerifiedFile]
    /// True when every file is `ok` (unlisted files count as problems unless allowed).
    public var ok: Bool
    /// True when `--allow-unlisted` made unlisted archives a warning only.
    public var unlistedAllowed: Bool
    /// Per-archive files (`NAME.sha256`) next to a listed archive that disagree with it; they
    /// fail the check like a changed archive, since users verify with them too.
    public var staleSidecars: [String] = []

    /// One problem per file that is not `ok`, naming the file and what to do; exit 1.
    public var failure: ProblemList? {
        let problems: [any RelctlError] = files.compactMap { file in
            let where_ = file.line.map { "\(self.file):\($0)" } ?? self.file
            switch file.status {
            case .ok: return nil
            case .unlisted where unlistedAllowed: return nil
            case .changed:
                return SimpleError(.failure, file: file.name, "checksum mismatch: \(file.algorithm.rawValue) is \(file.actual ?? "") but \(where_) lists \(file.expected ?? ""); the file was altered or the list is stale (rebuild it with `relctl checksum`)")
            case .missing:
                return SimpleError(.failure, file: file.name, "missing: listed in \(where_) but not on disk; download it again or rebuild the list with `relctl checksum`")
            case .unlisted:
                return SimpleError(.failure, file: file.name, "unlisted: an archive next to \(self.file) that it does not list; run `relctl checksum` to list it or remove the file")
            }
        }
        let stale: [any RelctlError] = staleSidecars.map { name in
            SimpleError(.failure, file: name, "does not match its archive (stale or altered); run `relctl checksum` to rewrite it")
        }
        return ok || (problems + stale).isEmpty ? nil : ProblemList(problems + stale)
    }
}

/// `relctl verify`: re-hashes every file a checksum file lists (GNU or BSD lines, SHA-256 or
/// SHA-512) and looks for archives next to it that it does not list.
public enum ChecksumVerifier {
    /// Verifies `sums` (a path as the user gave it). Malformed lines are bad input (exit 2); the
    /// report says which files are `ok`, `changed`, `missing` or `unlisted`. Unlisted archives are
    /// only looked for next to a combined file (`*SUMS`), not a single `NAME.sha256`, and fail
    /// the check unless `allowUnlisted`.
    public static func verify(sums: String, allowUnlisted: Bool = false, context: Context, jobs: Int? = nil) throws -> VerifyReport {
        let url = context.resolve(sums)
        let list = try ChecksumFile.read(url, displayPath: sums)
        let directory = url.deletingLastPathComponent()
        guard !list.entries.isEmpty else {
            throw SimpleError(.badInput, file: sums, "lists no files; run `relctl checksum` to fill it")
        }

        let targets = list.entries.map { entry in
            entry.name.hasPrefix("/") ? URL(fileURLWithPath: entry.name) : directory.appendingPathComponent(entry.name)
        }
        let present = list.entries.indices.filter { FileManager.default.fileExists(atPath: targets[$0].path) }
        let algorithms = Set(list.entries.map(\.algorithm))
        let digests = try FileHasher.digests(of: present.map { targets[$0] }, algorithms: algorithms, jobs: jobs)
        var actual: [Int: FileDigest] = [:]
        for (index, digest) in zip(present, digests) { actual[index] = digest }

        var files: [VerifiedFile] = list.entries.indices.map { index in
            let entry = list.entries[index]
            guard let digest = actual[index] else {
                return VerifiedFile(name: entry.name, status: .missing, algorithm: entry.algorithm, expected: entry.digest, line: entry.line)
            }
            let now = digest[entry.algorithm]
            return VerifiedFile(name: entry.name, status: now == entry.digest ? .ok : .changed, algorithm: entry.algorithm, expected: entry.digest, actual: now, line: entry.line)
        }

        if isCombined(url.lastPathComponent) {
            let listed = Set(targets.map(\.standardizedFileURL.path))
            let algorithm = list.entries[0].algorithm
            for name in ChecksumWriter.archives(in: directory) where !listed.contains(directory.appendingPathComponent(name).standardizedFileURL.path) {
                files.append(VerifiedFile(name: name, status: .unlisted, algorithm: algorithm))
            }
        }
        let stale = isCombined(url.lastPathComponent) ? staleSidecars(of: list, targets: targets, actual: actual) : []
        let ok = stale.isEmpty && files.allSatisfy { $0.status == .ok || ($0.status == .unlisted && allowUnlisted) }
        return VerifyReport(file: sums, files: files, ok: ok, unlistedAllowed: allowUnlisted, staleSidecars: stale)
    }

    /// Sidecars next to hashed archives whose digest is not the archive's; an unreadable or
    /// malformed one counts as stale.
    static func staleSidecars(of list: ChecksumFile, targets: [URL], actual: [Int: FileDigest]) -> [String] {
        var stale: [String] = []
        for (index, entry) in list.entries.enumerated() {
            guard let digest = actual[index] else { continue }
            let sidecar = URL(fileURLWithPath: targets[index].path + entry.algorithm.fileExtension)
            guard FileManager.default.fileExists(atPath: sidecar.path) else { continue }
            let lines = (try? ChecksumFile.read(sidecar))?.entries ?? []
            let own = lines.first { URL(fileURLWithPath: $0.name).lastPathComponent == targets[index].lastPathComponent }
            if own?.digest != digest[entry.algorithm] { stale.append(entry.name + entry.algorithm.fileExtension) }
        }
        return stale
    }

    /// `SHA256SUMS`, `sha256sums.txt`, `checksums.txt`: anything but a per-archive `NAME.sha256`.
    static func isCombined(_ fileName: String) -> Bool {
        !ChecksumAlgorithm.allCases.contains { fileName.hasSuffix($0.fileExtension) }
    }
}
