import RelctlBasics

/// Problems writing and verifying checksums. Unreadable or malformed inputs are bad input (exit 2);
/// a file that does not match its checksum, or a digest missing after packaging, fails the check (exit 1).
package enum ChecksumError: RelctlError, CustomStringConvertible {
    /// A listed file whose digest differs; `listedAt` is `FILE:LINE` of the checksum file.
    case mismatch(file: String, algorithm: String, actual: String, expected: String, listedAt: String)
    /// A listed file that is not on disk.
    case missing(file: String, listedAt: String)
    /// An archive next to the checksum file that it does not list.
    case unlisted(file: String, list: String)
    /// A per-archive `NAME.sha256` that disagrees with its archive.
    case staleSidecar(file: String)
    /// A folder, device or other non-file given to hash.
    case notRegularFile(path: String)
    /// A file that cannot be opened or read; `reason` is the errno text.
    case unreadable(path: String, reason: String)
    /// A checksum file without entries.
    case emptyList(path: String)
    /// A `manifest.json` relctl cannot decode.
    case notAManifest(path: String, reason: String)
    /// A checksum file path that names a folder.
    case listIsFolder(path: String)
    /// A checksum file missing (`exists` false) or unreadable.
    case listUnreadable(path: String, exists: Bool)
    /// A line that is neither GNU nor BSD format.
    case malformedLine(path: String, line: Int, text: String)
    /// A line whose file name is not UTF-8 (sha256sum lists a Latin-1 name as its raw bytes).
    case nameNotUTF8(path: String, line: Int, text: String)
    /// A name listed twice with different digests.
    case listedTwice(path: String, line: Int, name: String, firstLine: Int)
    /// An algorithm id relctl does not know.
    case unknownAlgorithm(id: String, file: String?)
    /// A packaged archive whose digest was not computed while it was written.
    case noDigest(path: String, algorithm: String)
    /// A path given to `relctl checksum` that does not exist.
    case inputNotFound(path: String)
    /// A folder given to `relctl checksum` holding no archives.
    case noArchives(path: String)
    /// A file given to `relctl checksum` that is not an archive.
    case notAnArchive(path: String)
    /// A folder holding the archives of several tags; `listing` names each tag and one archive.
    case severalReleases(path: String, listing: String)
    /// A `manifest.json` for another tag than the archives given.
    case manifestForOtherTag(path: String, manifestTag: String, tag: String)

    package var exitCode: RelctlExitCode {
        switch self {
        case .mismatch, .missing, .unlisted, .staleSidecar, .noDigest: return .failure
        default: return .badInput
        }
    }

    package var diagnostics: [Diagnostic] {
        switch self {
        case let .mismatch(file, algorithm, actual, expected, listedAt):
            return [
                Diagnostic(
                    file: file,
                    "checksum mismatch: \(algorithm) is \(actual) but \(listedAt) lists \(expected); the file was altered or the list is stale (rebuild it with `relctl checksum`)"
                )
            ]
        case let .missing(file, listedAt):
            return [
                Diagnostic(
                    file: file,
                    "missing: listed in \(listedAt) but not on disk as a file; download it again or rebuild the list with `relctl checksum`"
                )
            ]
        case let .unlisted(file, list):
            return [
                Diagnostic(
                    file: file,
                    "unlisted: an archive next to \(list) that it does not list; run `relctl checksum` to list it or remove the file"
                )
            ]
        case .staleSidecar(let file):
            return [
                Diagnostic(
                    file: file, "does not match its archive (stale or altered); run `relctl checksum` to rewrite it")
            ]
        case .notRegularFile(let path):
            return [Diagnostic(file: path, "not a regular file; only files can be checksummed")]
        case let .unreadable(path, reason):
            return [Diagnostic(file: path, "cannot read: \(reason)")]
        case .emptyList(let path):
            return [Diagnostic(file: path, "lists no files; run `relctl checksum` to fill it")]
        case let .notAManifest(path, reason):
            return [
                Diagnostic(
                    file: path,
                    "not a relctl manifest.json (schema 1): \(reason); delete it and run `relctl checksum` to rebuild it"
                )
            ]
        case .listIsFolder(let path):
            let example = (path.hasSuffix("/") ? path : path + "/") + ChecksumAlgorithm.sha256.sumsFileName
            return [Diagnostic(file: path, "is a folder; pass the checksum file in it, e.g. \(example)")]
        case let .listUnreadable(path, exists):
            return [
                Diagnostic(
                    file: path,
                    exists
                        ? "cannot read the checksum file"
                        : "checksum file not found; run `relctl checksum` first or pass its path")
            ]
        case let .malformedLine(path, line, text):
            return [
                Diagnostic(
                    file: path, line: line,
                    "malformed checksum line `\(text)`; expected `HEX  NAME` (sha256sum) or `SHA256 (NAME) = HEX` (BSD)"
                )
            ]
        case let .nameNotUTF8(path, line, text):
            return [
                Diagnostic(
                    file: path, line: line,
                    "`\(text)` names a file whose name is not UTF-8 (sha256sum writes names as raw bytes; this one is Latin-1 or another 8-bit encoding), and relctl reads names as UTF-8 only; rename that file to a UTF-8 name (`convmv -f latin1 -t utf8 --notest NAME`, or plain ASCII) and run sha256sum again"
                )
            ]
        case let .listedTwice(path, line, name, firstLine):
            return [
                Diagnostic(
                    file: path, line: line,
                    "`\(name)` is listed again with a different checksum (first on line \(firstLine)); keep one line per file"
                )
            ]
        case let .unknownAlgorithm(id, file):
            let known = ChecksumAlgorithm.allCases.map(\.rawValue).joined(separator: ", ")
            return [Diagnostic(file: file, "unknown checksum algorithm `\(id)`; known: \(known)")]
        case let .noDigest(path, algorithm):
            return [
                Diagnostic(
                    file: path,
                    "no \(algorithm) digest was computed while writing it; run `relctl checksum` on the folder")
            ]
        case .inputNotFound(let path):
            return [
                Diagnostic(file: path, "not found; run `relctl package` first or pass the folder holding the archives")
            ]
        case .noArchives(let path):
            return [
                Diagnostic(
                    file: path, "no archives here (\(ChecksumWriter.extensionList)); run `relctl package` first")
            ]
        case .notAnArchive(let path):
            return [Diagnostic(file: path, "not an archive relctl checksums (\(ChecksumWriter.extensionList))")]
        case let .severalReleases(path, listing):
            return [
                Diagnostic(
                    file: path,
                    "holds archives of more than one release: \(listing); remove the stale archives, then run `relctl checksum` again"
                )
            ]
        case let .manifestForOtherTag(path, manifestTag, tag):
            return [
                Diagnostic(
                    file: path,
                    "is for \(manifestTag) but the archives given are for \(tag); checksum the whole folder or remove the stale files"
                )
            ]
        }
    }

    package var description: String { message }
}
