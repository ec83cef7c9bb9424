import Foundation
import RelctlBasics

/// Where packaged inputs may come from once symlinks are resolved: the project (the repository's
/// files), or, for binaries read with `--artifacts`, that folder. A committed `LICENSE ->
/// /etc/secret` or a tree root linking elsewhere is refused like a link inside a tree.
package struct Containment {
    package let roots: [String]

    package init(root: URL, binaryRoot: URL?) {
        roots = ([root] + (binaryRoot.map { [$0] } ?? [])).map { FileSystem.realPath($0.path) ?? $0.standardizedFileURL.path }
    }

    package func check(_ source: URL, key: String) throws {
        guard let resolved = FileSystem.realPath(source.path) else { return }
        guard roots.contains(where: { resolved == $0 || resolved.hasPrefix($0 == "/" ? "/" : $0 + "/") }) else {
            throw PackagingError.outsideProject(path: source.path, resolved: resolved, key: key)
        }
    }
}
