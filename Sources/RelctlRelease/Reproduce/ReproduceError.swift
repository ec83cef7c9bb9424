import Foundation
import RelctlBasics
import RelctlModel

/// Problems of `relctl reproduce`: what it was asked to compare against is missing or unusable
/// (exit 2), or the rebuild itself failed or differs (exit 1).
enum ReproduceError: RelctlError, Equatable {
    /// The tag is not in this repository.
    case unknownTag(tag: String, directory: String)
    /// No published checksum file where `--from` (or dist/) points.
    case noPublishedSums(source: String, reason: String)
    /// `--from` is neither a folder nor an http(s) URL, or plain HTTP to a remote host.
    case badSource(source: String, reason: String)
    /// A file name read from the published release is not a plain relative name.
    case unsafeName(name: String, source: String)
    /// The published folder describes another release.
    case otherRelease(source: String, tag: String, found: String)
    /// A published file could not be downloaded.
    case downloadFailed(url: String, reason: String)
    /// The rebuild (the release's build and packaging) failed.
    case rebuildFailed(tag: String, cause: [Diagnostic])
    /// The rebuild differs from the published release; one line per differing file.
    case differs(tag: String, files: [String])

    var exitCode: RelctlExitCode {
        switch self {
        case .unknownTag, .noPublishedSums, .badSource, .otherRelease, .unsafeName: return .badInput
        case .downloadFailed, .rebuildFailed, .differs: return .failure
        }
    }

    var diagnostics: [Diagnostic] {
        switch self {
        case .unknownTag(let tag, let directory):
            return [
                Diagnostic(
                    file: directory,
                    "tag \(tag) is not in this repository; fetch it first (`git fetch --tags`) and run reproduce again")
            ]
        case .noPublishedSums(let source, let reason): return [Diagnostic(file: source, reason)]
        case .badSource(let source, let reason): return [Diagnostic(file: source, reason)]
        case .unsafeName(let name, let source):
            return [
                Diagnostic(
                    file: source,
                    "the release names a file `\(Console.printable(name))`, which is not a plain relative name (`..`, `.`, an absolute path, a backslash or a control character); relctl reads names from a release as data, never as paths: check where the release came from"
                )
            ]
        case .otherRelease(let source, let tag, let found):
            return [
                Diagnostic(
                    file: source,
                    "describes \(found), not \(tag) (manifest.json); pass the folder or URL of \(tag)'s files with --from"
                )
            ]
        case .downloadFailed(let url, let reason): return [Diagnostic("\(url): \(reason)")]
        case .rebuildFailed(let tag, let cause):
            let headline = "the rebuild of \(tag) failed, so it cannot be compared"
            // One cause (a write fault, one failed stage) is one line, as every other failure is;
            // only a list of problems gets a line of its own above them.
            if cause.count == 1, let only = cause.first {
                return [Diagnostic("\(headline): \(only.description)", severity: only.severity)]
            }
            return [Diagnostic("\(headline); what failed:")] + cause
        case .differs(let tag, let files):
            return files.map { Diagnostic("\(tag) is not reproducible: \($0)") }
        }
    }
}
