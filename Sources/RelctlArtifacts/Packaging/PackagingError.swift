import Foundation
import RelctlBasics

/// Why packaging refused or failed. Refusals about the input (unsafe links, missing files, name
/// clashes) are bad input (exit 2); an existing archive or a failed write is a failed step (exit 1).
package enum PackagingError: RelctlError, CustomStringConvertible, StorageFaultCarrying {
    case missingBinary(binary: String, path: String, target: String)
    case missingSource(path: String, key: String)
    case unreadable(path: String, reason: String)
    case absoluteSymlink(path: String, target: String, source: String?)
    case linkOutside(path: String, target: String, source: String?)
    case danglingLink(path: String, target: String, source: String?)
    case linkCycle(path: String, target: String, source: String?)
    case specialFile(path: String, kind: String)
    case controlCharacter(path: String)
    case unsafePath(path: String, reason: String)
    case collision(archivePath: String, first: String, second: String)
    case caseCollision(first: String, second: String, target: String)
    case archiveExists(path: String)
    case writeFailed(path: String, reason: String)
    /// The storage refused a write of the archive (`StorageFault`: a full disk, a file-size
    /// limit, a read-only mount, an I/O error); `code` is the `errno`.
    case writeRefused(path: String, code: Int32)
    /// An input that resolves (through a symlink) outside the project or the build output.
    /// `through`: the step that leaves it (`ConfinedPathError.step`).
    case outsideProject(path: String, through: String, key: String)
    /// An `[archive] format` id relctl does not know.
    case unknownFormat(id: String)
    /// No `[[target]]` to package.
    case noTargets(config: String)
    /// A file stands where the output folder (or one of its parents) must be.
    case outputBlocked(file: String, folder: String)
    /// The output folder cannot be created.
    case outputUncreatable(path: String, reason: String)
    /// A target failed with an error that is not relctl's own.
    case targetFailed(target: String, reason: String)
    /// `--artifacts` would hand two targets the same binary file (a flat folder, or a binary-dir
    /// without `{target}`): their archives would hold one target's binaries under both names.
    case sharedArtifact(path: String, first: String, second: String)
    /// `[archive] compression-level` outside what any format takes.
    case compressionLevel(config: String, level: Int)
    /// `format = "artifactbundle"` asked only by targets a SwiftPM bundle cannot serve (Windows).
    case artifactBundleWithoutTargets(config: String, targets: [String])
    /// The binary's header says it was built for another platform than its target.
    case wrongPlatform(binary: String, path: String, target: String, found: String, reason: String)

    package var exitCode: RelctlExitCode {
        switch self {
        case .archiveExists, .writeFailed, .writeRefused, .targetFailed, .wrongPlatform: return .failure
        default: return .badInput
        }
    }

    package var diagnostics: [Diagnostic] {
        switch self {
        case let .compressionLevel(config, level):
            return [
                Diagnostic(
                    file: config,
                    "[archive] compression-level must be between 0 and 19 (gzip and zip 1-9, xz 0-9, zstd 1-19), found \(level)"
                )
            ]
        case let .wrongPlatform(binary, path, target, found, reason):
            return [
                Diagnostic(
                    file: path,
                    "binary `\(binary)` is \(found), not a binary for target \(target) (\(reason)); nothing was packaged: build it for \(target) (a build command that passes {target}, or a per-target `command`), or remove the target"
                )
            ]
        case let .sharedArtifact(path, first, second):
            return [
                Diagnostic(
                    file: path,
                    "--artifacts would put this one file into the archives of both \(first) and \(second); lay the folder out per target (DIR/<binary-dir>/NAME, with {target} in binary-dir), or package one target at a time with --target"
                )
            ]
        case .outsideProject(let path, let through, let key):
            return [
                Diagnostic(
                    file: path,
                    "\(through) leads outside the project (\(key)); a release packages only what the repository and its build hold: replace the link with the file itself"
                )
            ]
        case let .missingBinary(binary, path, target):
            return [
                Diagnostic(
                    file: path,
                    "binary `\(binary)` for target \(target) not found; run `relctl build --target \(target)` first, or check [build] binaries and binary-dir"
                )
            ]
        case let .missingSource(path, key):
            return [
                Diagnostic(
                    file: path,
                    "listed in [archive] \(key) but does not exist; fix the path in relctl.toml or create the file")
            ]
        case let .unreadable(path, reason):
            return [
                Diagnostic(file: path, "cannot be read (\(reason)); fix its permissions or add it to [archive] exclude")
            ]
        case let .absoluteSymlink(path, target, source):
            return [
                Diagnostic(
                    file: source,
                    "symlink `\(path)` points to the absolute path `\(target)`; archives may only hold relative links that stay inside the archive folder"
                )
            ]
        case let .linkOutside(path, target, source):
            return [
                Diagnostic(
                    file: source,
                    "symlink `\(path)` -> `\(target)` resolves outside the archive folder; point it at a file inside the archive or exclude it"
                )
            ]
        case let .danglingLink(path, target, source):
            return [
                Diagnostic(
                    file: source,
                    "symlink `\(path)` -> `\(target)` points to nothing in the archive (dangling); add the target to the archive or remove the link"
                )
            ]
        case let .linkCycle(path, target, source):
            return [
                Diagnostic(
                    file: source,
                    "symlink `\(path)` -> `\(target)` is part of a link cycle (or more than 40 links deep); break the cycle"
                )
            ]
        case let .specialFile(path, kind):
            return [
                Diagnostic(
                    file: path,
                    "is a \(kind); archives may only hold regular files, directories and symlinks; remove it or add it to [archive] exclude"
                )
            ]
        case let .controlCharacter(path):
            return [
                Diagnostic(
                    "archive path \(path.debugDescription) contains a control character; rename the file or exclude it")
            ]
        case let .unsafePath(path, reason):
            let shown = path.utf8.count > 200 ? "\(path.prefix(60))… (\(path.utf8.count) bytes)" : path
            return [Diagnostic("archive path `\(shown)` \(reason)")]
        case let .collision(archivePath, first, second):
            return [
                Diagnostic(
                    "two sources map to the same archive path `\(archivePath)`: \(first) and \(second); rename one with `to` in relctl.toml"
                )
            ]
        case let .caseCollision(first, second, target):
            return [
                Diagnostic(
                    "archive paths `\(first)` and `\(second)` differ only in letter case; Windows and macOS treat them as one file, so extracting the \(target) archive would silently keep only one; rename one with `to`, or leave one out with [archive] exclude"
                )
            ]
        case let .archiveExists(path):
            return [
                Diagnostic(
                    file: path,
                    "already exists and is never overwritten; pass --clean to remove this tag's artifacts first")
            ]
        case let .writeFailed(path, reason):
            return [Diagnostic(file: path, "cannot write the archive: \(reason)")]
        case let .writeRefused(path, code):
            return [Diagnostic(file: path, "cannot write the archive: \(StorageFault.reason(code))")]
        case let .unknownFormat(id):
            return [
                Diagnostic(
                    "unknown archive format `\(id)`\(Suggestion.hint(for: id, in: ArchiveFormats.ids)); known formats: \(ArchiveFormats.ids.joined(separator: ", "))"
                )
            ]
        case let .artifactBundleWithoutTargets(config, targets):
            return [
                Diagnostic(
                    file: config,
                    "format \"\(ArtifactBundle.format)\" needs an Apple or Linux [[target]]; SwiftPM artifact bundles hold no Windows or other executables, and \(targets.joined(separator: ", ")) would give an empty bundle: drop the format or add such a target"
                )
            ]
        case let .noTargets(config):
            return [Diagnostic(file: config, "no targets to package; add [[target]] entries to relctl.toml")]
        case let .outputBlocked(file, folder):
            return [
                Diagnostic(
                    file: file,
                    "is a file, so the output folder \(folder) cannot be created; pass another --out or move the file")
            ]
        case let .outputUncreatable(path, reason):
            return [Diagnostic(file: path, "cannot create the output folder (\(reason)); pass another --out")]
        case let .targetFailed(target, reason):
            return [Diagnostic("\(target): \(reason)")]
        }
    }

    package var description: String { diagnostics.map(\.description).joined(separator: "\n") }

    package var storageFault: Int32? {
        if case .writeRefused(_, let code) = self { return code }
        return nil
    }
}

/// Every problem one archive's layout has, found in one pass (missing files, unsafe or dangling
/// links…), so a user fixes them all at once instead of one per run.
package struct LayoutProblems: RelctlError {
    package var errors: [PackagingError]
    package var exitCode: RelctlExitCode { errors.contains { $0.exitCode == .failure } ? .failure : .badInput }
    package var diagnostics: [Diagnostic] { errors.flatMap(\.diagnostics) }

    /// Throws nothing for no errors, the error itself for one, all of them for several.
    package static func raise(_ errors: [PackagingError]) throws {
        if errors.count == 1 { throw errors[0] }
        if !errors.isEmpty { throw LayoutProblems(errors: errors) }
    }
}
