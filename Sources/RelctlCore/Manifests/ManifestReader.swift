import Foundation

/// The version a manifest declares, as written, and where it came from.
public struct ManifestVersion: Sendable, Equatable {
    public var text: String
    /// The file the version was actually found in (a Cargo workspace root, for inherited versions).
    public var foundIn: String
    /// The 1-based line of the version text, for `bump --write` and messages.
    public var line: Int?

    public init(text: String, foundIn: String, line: Int? = nil) {
        self.text = text
        self.foundIn = foundIn
        self.line = line
    }
}

/// Reads the version out of one kind of manifest.
public protocol ManifestReader: Sendable {
    /// How versions of this kind compare with a tag's.
    var comparison: VersionComparison { get }
    /// Reads the version. `url` is the manifest; `source` carries kind-specific settings (pattern).
    func readVersion(at url: URL, source: VersionSource, displayPath: String) throws -> ManifestVersion
}

public enum VersionComparison: Sendable {
    /// SemVer 2.0.0 equality (build metadata included).
    case semver
    /// PEP 440 normalisation: `1.2.3rc1` equals `v1.2.3-rc.1`.
    case pep440
}

/// Problems reading a manifest; all are bad input (exit 2).
public enum ManifestError: RelctlError, CustomStringConvertible {
    case missing(path: String)
    case noVersion(path: String, hint: String)
    case dynamicVersion(path: String)
    case invalid(path: String, line: Int?, reason: String)
    case unknownKind(String)

    public var exitCode: RelctlExitCode { .badInput }

    public var diagnostics: [Diagnostic] {
        switch self {
        case .missing(let path):
            return [
                Diagnostic(file: path, "manifest not found; fix `path` in its [[version]] entry or create the file")
            ]
        case let .noVersion(path, hint):
            return [Diagnostic(file: path, "no version found: \(hint)")]
        case .dynamicVersion(let path):
            return [
                Diagnostic(
                    file: path,
                    "the version is dynamic (`dynamic = [\"version\"]`), so this file holds none to compare; the tag is then the source of truth: point [[version]] at the file your build backend reads it from, with kind `regex` and a `pattern`, or kind `plain` for a VERSION file"
                )
            ]
        case let .invalid(path, line, reason):
            return [Diagnostic(file: path, line: line, reason)]
        case .unknownKind(let kind):
            let known = ManifestReaders.knownKinds
            return [
                Diagnostic(
                    "unknown manifest kind `\(kind)`\(Suggestion.hint(for: kind, in: known)); known kinds: \(known.joined(separator: ", "))"
                )
            ]
        }
    }

    public var description: String { message }
}

/// The registry of manifest readers, keyed by kind. Built-ins are registered here; an unknown
/// kind fails with the list of known ones.
public enum ManifestReaders {
    public static let registry: [String: any ManifestReader] = [
        "cargo": CargoManifestReader(),
        "npm": NpmManifestReader(),
        "python": PythonManifestReader(),
        "swift": SwiftManifestReader(),
        "plain": PlainManifestReader(),
        "regex": RegexManifestReader(),
    ]

    public static var knownKinds: [String] { registry.keys.sorted() }

    /// The reader for `kind`, or bad input listing the known kinds.
    public static func reader(for kind: String) throws -> any ManifestReader {
        guard let reader = registry[kind] else {
            throw ManifestError.unknownKind(kind)
        }
        return reader
    }

    /// The kind a file name implies, or nil when it must be given.
    public static func kind(forFileName path: String) -> String? {
        let name = (path as NSString).lastPathComponent
        switch name {
        case "Cargo.toml": return "cargo"
        case "package.json": return "npm"
        case "pyproject.toml": return "python"
        case "VERSION", "VERSION.txt", "version.txt": return "plain"
        default: return name.hasSuffix(".swift") ? "swift" : nil
        }
    }

    /// Reads a source's version from the project at `root`.
    public static func read(_ source: VersionSource, root: URL) throws -> ManifestVersion {
        let url = RelctlConfig.resolve(source.path, root: root)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ManifestError.missing(path: source.path)
        }
        if isDirectory.boolValue {
            throw ManifestError.invalid(
                path: source.path, line: nil,
                reason: "is a directory; point `path` in its [[version]] entry at the manifest file inside it")
        }
        return try reader(for: source.kind).readVersion(at: url, source: source, displayPath: source.path)
    }
}

/// Shared helpers for readers.
enum ManifestText {
    static func read(_ url: URL, displayPath: String) throws -> String {
        guard let text = try TextFile.read(url, displayPath: displayPath) else {
            // Present but unopenable is not "missing": say what it is.
            if FileManager.default.fileExists(atPath: url.path) {
                throw ManifestError.invalid(
                    path: displayPath, line: nil, reason: "cannot be read; check its permissions")
            }
            throw ManifestError.missing(path: displayPath)
        }
        return text
    }

    /// The 1-based line holding the character offset.
    static func line(of index: String.Index, in text: String) -> Int {
        text[..<index].reduce(1) { $1.isLineBreak ? $0 + 1 : $0 }
    }

    /// The line of the first `version = "…"` assignment inside the `[header]` table of a TOML file.
    static func tomlVersionLine(in text: String, table header: String) -> Int? {
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
