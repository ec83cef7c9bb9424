import Foundation
import RelctlBasics

/// Where `bump --write` writes a manifest or companion: the file itself or, when it is a symlink
/// (or sits in a linked folder), the file it resolves to, provided that is inside the repository.
/// Replacing the link itself would turn it into a regular file with the link's mode (0777).
package struct WriteTarget {
    /// The real file to replace.
    package var url: URL
    /// The path to report as written, relative to the project root when possible.
    package var display: String
    /// Set when the write goes through a link: what relctl does instead of replacing it.
    package var note: String?

    package init(_ url: URL, display: String, root: URL) throws {
        guard let resolved = FileSystem.realPath(url.path) else {
            // Not there (yet): nothing to resolve; the read reports it.
            self.url = url.standardizedFileURL
            self.display = display
            return
        }
        let parent = FileSystem.realPath(url.deletingLastPathComponent().path) ?? url.deletingLastPathComponent().path
        let direct = (parent as NSString).appendingPathComponent(url.lastPathComponent)
        let realRoot = FileSystem.realPath(root.path) ?? root.path
        let top = Git.repositoryTop(of: realRoot) ?? realRoot
        let isLink = resolved != direct && resolved != url.standardizedFileURL.path
        // The decision is the one path rule's (ConfinedPath): every link followed, never out of the
        // repository's top (a member writes the workspace's lock, above its own folder).
        let inside: URL
        do {
            inside = try ConfinedPath.resolveInside(
                Self.path(of: url, root: root, realRoot: realRoot, top: top),
                root: AbsolutePath(top, relativeTo: AbsolutePath(root)).url,
                what: "version file")
        } catch is ConfinedPathError {
            throw NotesError.writeOutsideRepository(
                path: display,
                reason:
                    "\(isLink ? "is a link to" : "is") \(resolved), outside the repository; relctl does not write there: set the version in that file yourself\(isLink ? ", or replace the link with the file" : "")"
            )
        }
        self.url = inside
        guard isLink else {
            self.display = display
            return
        }
        self.display = Self.relative(resolved, to: realRoot)
        note = "\(display) is a link: writing the version through it to \(self.display) (the link stays a link)"
    }

    /// `url` as a path the path rule walks from `top`: relative to it when `url` is under the
    /// project root as given (its links are the rule's to follow), else as it is.
    package static func path(of url: URL, root: URL, realRoot: String, top: String) -> String {
        let given = root.standardizedFileURL.path
        let full = url.standardizedFileURL.path
        guard full.hasPrefix(given + "/") else { return full }
        let inRoot = String(full.dropFirst(given.count + 1))
        guard realRoot != top else { return inRoot }
        return realRoot.hasPrefix(top + "/") ? String(realRoot.dropFirst(top.count + 1)) + "/" + inRoot : full
    }

    /// `path` relative to `base` (both absolute and resolved), with `../` where needed.
    package static func relative(_ path: String, to base: String) -> String {
        let target = path.split(separator: "/")
        let from = base.split(separator: "/")
        var common = 0
        while common < min(target.count, from.count), target[common] == from[common] { common += 1 }
        let ups = Array(repeating: "..", count: from.count - common)
        return (ups + target[common...].map(String.init)).joined(separator: "/")
    }
}
