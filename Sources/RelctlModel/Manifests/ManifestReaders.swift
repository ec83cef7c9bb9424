import Foundation
import RelctlBasics
import Synchronization

/// The registry of manifest readers, keyed by kind. Built-ins are registered here; an unknown
/// kind fails with the list of known ones.
package enum ManifestReaders {
    package static let builtIns: [String: any ManifestReader] = [
        "cargo": CargoManifestReader(),
        "npm": NpmManifestReader(),
        "python": PythonManifestReader(),
        "swift": SwiftManifestReader(),
        "plain": PlainManifestReader(),
        "regex": RegexManifestReader(),
        HelmManifestReader.versionKind: HelmManifestReader(key: "version"),
        HelmManifestReader.appVersionKind: HelmManifestReader(key: "appVersion"),
    ]

    /// The readers a program built on the libraries added (`RelctlExtensions.install`), with the
    /// file names that imply their kind.
    private static let added = Mutex<(readers: [String: any ManifestReader], fileNames: [String: String])>(([:], [:]))

    package static var registry: [String: any ManifestReader] {
        builtIns.merging(added.withLock { $0.readers }) { builtIn, _ in builtIn }
    }

    package static var knownKinds: [String] { registry.keys.sorted() }

    /// Adds a reader; a kind or file name the built-ins (or an earlier extension) already claim is refused.
    package static func add(_ reader: any ManifestReader, kind: String, fileNames: [String]) throws(ExtensionError) {
        try added.withLock { added throws(ExtensionError) in
            guard builtIns[kind] == nil, added.readers[kind] == nil else {
                throw ExtensionError.duplicate(what: "manifest kind", name: kind)
            }
            for name in fileNames where builtInKind(forFileName: name) != nil || added.fileNames[name] != nil {
                throw ExtensionError.duplicate(what: "manifest file name", name: name)
            }
            added.readers[kind] = reader
            for name in fileNames { added.fileNames[name] = kind }
        }
    }

    /// The reader for `kind`, or bad input listing the known kinds.
    package static func reader(for kind: String) throws -> any ManifestReader {
        guard let reader = registry[kind] else {
            throw ManifestError.unknownKind(kind)
        }
        return reader
    }

    /// Whether a project's versions are PEP 440: one of its manifests is compared by PEP 440
    /// (a Python manifest), so its tags may spell versions that way (`v2.14.0b1`).
    package static func comparesByPEP440(_ sources: [VersionSource]) -> Bool {
        sources.contains { (try? reader(for: $0.kind))?.comparison == .pep440 }
    }

    /// Whether a project's tags may spell PEP 440 versions: a manifest is compared by PEP 440, or
    /// none is configured and the folder is a Python package whose version comes from its tags
    /// (setuptools-scm, hatch-vcs: pipx's `1.1.0rc0`, pip-tools' `3.0.0rc1`).
    package static func readsPEP440Tags(_ sources: [VersionSource], root: URL) -> Bool {
        if comparesByPEP440(sources) { return true }
        guard sources.isEmpty else { return false }
        return ["pyproject.toml", "setup.py", "setup.cfg"].contains {
            FileSystem.kind(of: root.appendingPathComponent($0)) == .file
        }
    }

    /// The kind a file name implies, or nil when it must be given.
    package static func kind(forFileName path: String) -> String? {
        let name = (path as NSString).lastPathComponent
        return builtInKind(forFileName: name) ?? added.withLock { $0.fileNames[name] }
    }

    private static func builtInKind(forFileName name: String) -> String? {
        switch name {
        case "Cargo.toml": return "cargo"
        case "package.json": return "npm"
        case "pyproject.toml": return "python"
        case "VERSION", "VERSION.txt", "version.txt": return "plain"
        case HelmChartFile.name: return HelmManifestReader.versionKind
        default:
            if name.hasSuffix(".py") { return "python" }  // `__version__ = "…"` (hatch's version path)
            return name.hasSuffix(".swift") ? "swift" : nil
        }
    }

    /// Reads a source's version from the project at `root`. The location goes through the one
    /// path rule first: a manifest that is (or lies behind) a link out of the project is refused
    /// before a byte of it is read, naming the link and its target (exit 2).
    ///
    /// `within` is the folder the file must stay in when it is wider than `root`: a workspace
    /// member's version file may be anywhere in the repository (`../../charts/app/Chart.yaml`).
    package static func read(_ source: VersionSource, root: URL, within: URL? = nil) throws -> ManifestVersion {
        let url = try location(of: source.path, root: root, within: within)
        let info: FileStatus
        do { info = try FileSystem.status(atPath: url.path) } catch {
            // Only a name that is not there is "not found": a folder on the way that may not be
            // entered is a permission problem, and says so.
            if error.isMissing { throw ManifestError.missing(path: source.path) }
            throw ManifestError.invalid(
                path: source.path, line: nil,
                reason: "cannot be read: \(error); check the permissions of it and its folders")
        }
        if info.isDirectory {
            throw ManifestError.invalid(
                path: source.path, line: nil,
                reason: "is a directory; point `path` in its [[version]] entry at the manifest file inside it")
        }
        return try reader(for: source.kind).readVersion(at: url, source: source, displayPath: source.path)
    }
}

extension ManifestReaders {
    /// Reads a source's version from the project `config` describes, its file held to the
    /// repository when `config` is a workspace member's (`RelctlConfig.repositoryRoot`).
    package static func read(_ source: VersionSource, config: RelctlConfig) throws -> ManifestVersion {
        try read(source, root: config.root, within: config.repositoryRoot)
    }

    /// Where `path` (relative to `root`, or absolute) is, through the one path rule: held to
    /// `within` when given (`root` lies inside it), else to `root`. A `..` climbing above it, or a
    /// link leading out of it, is refused (exit 2) naming the path.
    package static func location(of path: String, root: URL, within: URL?) throws -> URL {
        guard let within else { return try ConfinedPath.resolveInside(path, root: root, what: "[[version]] path") }
        let full = path.hasPrefix("/") ? path : root.standardizedFileURL.path + "/" + path
        do {
            return try ProjectFile.open(full, in: within, what: "[[version]] path", shown: path).location
        } catch ConfinedPathError.outside(_, let link, let target, let top, let what) {
            // Named as the project wrote it, not as the joined path.
            throw ConfinedPathError.outside(path: path, link: link, target: target, root: top, what: what)
        }
    }
}

/// A `VERSION` file: its whole content, trimmed.
package struct PlainManifestReader: ManifestReader {
    package var comparison: VersionComparison { .semver }
    package init() {}

    package func readVersion(at url: URL, source: VersionSource, displayPath: String) throws -> ManifestVersion {
        let content = try ManifestText.read(url, displayPath: displayPath)
        guard let start = content.firstIndex(where: { !$0.isWhitespace }) else {
            throw ManifestError.noVersion(path: displayPath, hint: "the file is empty")
        }
        let text = content[start...].trimmingCharacters(in: .whitespacesAndNewlines)
        let line = ManifestText.line(of: start, in: content)
        if text.contains(where: \.isNewline) {
            throw ManifestError.invalid(
                path: displayPath, line: line + 1,
                reason:
                    "a `plain` version file must hold only the version; use kind `regex` with a `pattern` for anything else"
            )
        }
        return ManifestVersion(text: text, foundIn: displayPath, line: line)
    }
}

/// A Swift source file (Swift packages have no version field in Package.swift): the first
/// `let version = "…"` (or `var`, or with `: String`), or a custom `pattern`.
package struct SwiftManifestReader: ManifestReader {
    package static let defaultPattern = #"(?:let|var)\s+version\s*(?::\s*String\s*)?=\s*"(?<version>[^"]+)""#
    package var comparison: VersionComparison { .semver }
    package init() {}

    package func readVersion(at url: URL, source: VersionSource, displayPath: String) throws -> ManifestVersion {
        do {
            return try RegexManifestReader.match(
                source.pattern ?? Self.defaultPattern, in: url, displayPath: displayPath)
        } catch ManifestError.noVersion where source.pattern == nil {
            throw ManifestError.noVersion(
                path: displayPath, hint: "expected a declaration like `let version = \"1.2.3\"`, or give a `pattern`")
        }
    }
}

/// Reads the version out of one kind of manifest. The built-ins are in this folder; a program
/// built on relctl's libraries adds its own through `RelctlExtensions` (Examples/relctl-gradle).
/// A reader throws a `RelctlError` naming `displayPath` when the file holds no version.
public protocol ManifestReader: Sendable {
    /// How versions of this kind compare with a tag's.
    var comparison: VersionComparison { get }
    /// Reads the version. `url` is the manifest; `source` carries kind-specific settings (pattern).
    func readVersion(at url: URL, source: VersionSource, displayPath: String) throws -> ManifestVersion
}

/// The version a manifest declares, as written, and where it came from.
public struct ManifestVersion: Sendable, Equatable {
    public var text: String
    /// The file the version was actually found in (a Cargo workspace root, for inherited versions).
    public var foundIn: String
    /// The 1-based line of the version text, for `bump --write` and messages.
    public var line: Int?
    /// The tuple literal on `line` when the version is kept as one (`(26, 1, 0)`, `VersionTuple`):
    /// `bump --write` rewrites that literal, not `text`.
    public var tuple: String?

    public init(text: String, foundIn: String, line: Int? = nil, tuple: String? = nil) {
        self.text = text
        self.foundIn = foundIn
        self.line = line
        self.tuple = tuple
    }
}

/// How a manifest's version is compared with the tag's.
public enum VersionComparison: Sendable {
    /// SemVer 2.0.0 equality (build metadata included).
    case semver
    /// PEP 440 normalisation: `1.2.3rc1` equals `v1.2.3-rc.1`.
    case pep440
}

/// Shared helpers for readers.
package enum ManifestText {
    /// The manifest at `url` as text, opened under the read rule (held to its folder: `read`
    /// above has already resolved it inside the project).
    package static func read(_ url: URL, displayPath: String) throws -> String {
        let file = try ProjectFile.open(location: url, shown: displayPath)
        guard let text = try file.text() else {
            // Present but unopenable is not "missing": say what it is.
            let failure: SystemCallFailure
            do {
                _ = try file.readable()
                failure = SystemCallFailure(code: EIO)
            } catch {
                failure = error
            }
            if failure.isMissing { throw ManifestError.missing(path: displayPath) }
            throw ManifestError.invalid(
                path: displayPath, line: nil, reason: "cannot be read: \(failure); check its permissions")
        }
        return text
    }

    /// The 1-based line holding the character offset.
    package static func line(of index: String.Index, in text: String) -> Int {
        text[..<index].reduce(1) { $1.isLineBreak ? $0 + 1 : $0 }
    }

    /// The line of the first `version = "…"` assignment inside the `[header]` table of a TOML file.
    package static func tomlVersionLine(in text: String, table header: String) -> Int? {
        var inside = header.isEmpty
        for (index, raw) in text.fileLines.enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                inside = line.hasPrefix("[\(header)]")
            } else if inside, line.hasPrefix("version"),
                line.dropFirst(7).trimmingCharacters(in: .whitespaces).hasPrefix("=")
            {
                return index + 1
            }
        }
        return nil
    }
}
