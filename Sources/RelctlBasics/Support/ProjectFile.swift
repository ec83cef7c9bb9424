import Foundation

/// The read rule (issue 55): the one way to open a file relctl reads from the project or from a
/// `previous` source (relctl.toml and a member's, manifests, lockfiles, changelogs, templates,
/// licence and readme files, a `previous` repository's indexes and packages).
///
/// A `ProjectFile` can only be made by `open`, which resolves the path through
/// `ConfinedPath.resolveInside` against the root it must stay in (the repository, the project
/// folder, or the `previous` folder): every link on the way is followed as the kernel would, and
/// one leading outside the root (absolute, `..` above it, a chain, a loop) is refused with exit 2
/// naming the file, the link and its target, before a byte is read. What the value reads is the
/// link-free location inside the root that the check found. (A link put in its place while relctl
/// runs is a race with someone who can already write the working tree; not in scope.)
///
/// `LayerTests.projectFilesAreOpenedOnlyThroughProjectFile` holds the rest of the code to it.
public struct ProjectFile: Sendable, CustomStringConvertible {
    /// The path as the project names it, for messages (`crates/core/CHANGELOG.md`).
    public let shown: String
    /// The root the file must stay in.
    package let root: URL
    /// Where the file is: inside `root`, through no link.
    package let location: URL

    private init(shown: String, root: URL, location: URL) {
        self.shown = shown
        self.root = root
        self.location = location
    }

    public var description: String { shown }

    /// `path` (relative to `root`, or absolute naming a place inside it) opened under the read
    /// rule; `what` says which file it is in a refusal (`CHANGELOG.md`, `[workspace] members`).
    /// The file may not exist: `exists` and the readers say so.
    /// A refusal is a `ConfinedPathError` (exit 2).
    package static func open(
        _ path: String, in root: URL, what: String? = nil, shown: String? = nil
    ) throws -> ProjectFile {
        let display = shown ?? path
        let location = try ConfinedPath.resolveInside(path, root: root, what: what ?? display)
        return ProjectFile(shown: display, root: root, location: location)
    }

    /// The file at `url` held to its own folder: for a location relctl found by looking (a Cargo
    /// workspace's root manifest in a parent folder, a manifest an extension's reader is handed),
    /// where no wider root is known. The file itself may not be a link out of that folder.
    package static func open(location url: URL, shown: String? = nil) throws -> ProjectFile {
        try open(url.lastPathComponent, in: url.deletingLastPathComponent(), shown: shown ?? url.path)
    }

    // MARK: What is there

    /// What is at the location (no link left on the way), nil when nothing is.
    package var kind: FileSystem.Kind? { FileSystem.kind(of: location) }
    package var exists: Bool { kind != nil }
    package var isDirectory: Bool { kind == .directory }
    package var isRegularFile: Bool { FileKind.isRegularFile(location.path) }
    package var size: Int64? { FileSystem.size(of: location) }

    // MARK: Reading

    /// The whole file; nil when it does not exist or cannot be read.
    package func data() -> Data? { FileSystem.contents(of: location) }

    /// The file when it holds at most `limit` bytes (`tooLarge` past it); nil when unreadable.
    package func data(limit: Int) -> FileSystem.BoundedRead? { FileSystem.contents(of: location, limit: limit) }

    /// UTF-8 text the way relctl reads a file users edit (`TextFile.read`: bounded, no NUL, valid
    /// UTF-8, errors naming `shown` and the line); nil when it does not exist or cannot be opened.
    package func text() throws -> String? { try TextFile.read(location, displayPath: shown) }

    /// The file opened for streaming (a package copied into a repository, a file hashed).
    package func readable() throws(SystemCallFailure) -> ReadableFile { try ReadableFile(path: location.path) }

    /// A copy of the file at `destination` (a `previous` repository's package into the scratch
    /// copy relctl extends): the bytes of the file inside the root, never a link.
    package func copy(to destination: URL) throws { try FileSystem.copy(location, to: destination) }
}
