import Foundation

/// The registry of manifest readers, keyed by kind. Built-ins are registered here; an unknown
/// kind fails with the list of known ones.
enum ManifestReaders {
    static let registry: [String: any ManifestReader] = [
        "cargo": CargoManifestReader(),
        "npm": NpmManifestReader(),
        "python": PythonManifestReader(),
        "swift": SwiftManifestReader(),
        "plain": PlainManifestReader(),
        "regex": RegexManifestReader(),
        HelmManifestReader.versionKind: HelmManifestReader(key: "version"),
        HelmManifestReader.appVersionKind: HelmManifestReader(key: "appVersion"),
    ]

    static var knownKinds: [String] { registry.keys.sorted() }

    /// The reader for `kind`, or bad input listing the known kinds.
    static func reader(for kind: String) throws -> any ManifestReader {
        guard let reader = registry[kind] else {
            throw ManifestError.unknownKind(kind)
        }
        return reader
    }

    /// The kind a file name implies, or nil when it must be given.
    static func kind(forFileName path: String) -> String? {
        let name = (path as NSString).lastPathComponent
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

    /// Reads a source's version from the project at `root`.
    static func read(_ source: VersionSource, root: URL) throws -> ManifestVersion {
        let url = RelctlConfig.resolve(source.path, root: root)
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            let code = errno
            // Only a name that is not there is "not found": a folder on the way that may not be
            // entered is a permission problem, and says so.
            if code == ENOENT || code == ENOTDIR { throw ManifestError.missing(path: source.path) }
            throw ManifestError.invalid(
                path: source.path, line: nil,
                reason:
                    "cannot be read: \(FileSystem.describe(errno: code)); check the permissions of it and its folders")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw ManifestError.invalid(
                path: source.path, line: nil,
                reason: "is a directory; point `path` in its [[version]] entry at the manifest file inside it")
        }
        return try reader(for: source.kind).readVersion(at: url, source: source, displayPath: source.path)
    }
}
