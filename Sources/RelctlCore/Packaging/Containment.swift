import Foundation

/// Where packaged inputs may come from once symlinks are resolved: the project (the repository's
/// files), or, for binaries read with `--artifacts`, that folder. A committed `LICENSE ->
/// /etc/secret` or a tree root linking elsewhere is refused like a link inside a tree.
struct Containment {
    let roots: [String]

    init(root: URL, binaryRoot: URL?) {
        roots = ([root] + (binaryRoot.map { [$0] } ?? [])).map { Self.realPath($0.path) ?? $0.standardizedFileURL.path }
    }

    func check(_ source: URL, key: String) throws {
        guard let resolved = Self.realPath(source.path) else { return }
        guard roots.contains(where: { resolved == $0 || resolved.hasPrefix($0 == "/" ? "/" : $0 + "/") }) else {
            throw PackagingError.outsideProject(path: source.path, resolved: resolved, key: key)
        }
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
