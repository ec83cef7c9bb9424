import Foundation
import RelctlBasics

/// What git ignores under the project root, read with one `git ls-files`. Release trees hold what
/// a fresh clone of the commit holds (plus files a hook or build generated that git does not
/// ignore), so an ignored file lying in a demo folder is never packaged, and a real run and its
/// dry run, which works in a clone, package the same entries.
package struct IgnoredPaths: Sendable {
    /// Ignored files, and ignored folders (git lists a wholly ignored folder once), relative to the root.
    private var paths: Set<String>

    package init(paths: Set<String>) { self.paths = paths }

    /// The ignored paths under `root`; nil outside a git work tree, where nothing is filtered.
    package static func load(root: URL, context: Context) async -> IgnoredPaths? {
        await WorkProfile.shared.measure(.ignoreCheck) { await loadUnmeasured(root: root, context: context) }
    }

    private static func loadUnmeasured(root: URL, context: Context) async -> IgnoredPaths? {
        let git = Git(directory: root, context: context)
        guard
            let result = try? await git.runUnchecked([
                "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory",
            ]),
            result.succeeded
        else { return nil }
        let names = result.stdout.split(separator: 0).map { entry -> String in
            var name = String(decoding: entry, as: UTF8.self)
            while name.hasSuffix("/") { name.removeLast() }
            return name
        }
        return IgnoredPaths(paths: Set(names))
    }

    /// True when `path` (relative to the root) or a folder holding it is ignored.
    package func contains(_ path: String) -> Bool {
        var prefix = ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix = prefix.isEmpty ? String(component) : prefix + "/" + component
            if paths.contains(prefix) { return true }
        }
        return false
    }
}
