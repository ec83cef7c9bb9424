import Foundation
import RelctlBasics
import RelctlModel

/// Checks every symlink against the archive's own contents (not the disk): relative, resolving
/// inside the top folder, to something that exists, without cycles. For links `copy` it replaces
/// each link by a copy of what it resolves to (files, or whole folders).
package struct LinkResolver {
    private let byPath: [String: ArchiveEntry]
    private let entries: [ArchiveEntry]
    private static let maximumHops = 40

    package init(entries: [ArchiveEntry]) {
        self.entries = entries
        // Only links are looked up: without one, no table (it cost ~10 MB per 100,000 entries).
        let hasLinks = entries.contains { if case .symlink = $0.content { true } else { false } }
        self.byPath =
            hasLinks ? Dictionary(entries.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first }) : [:]
    }

    package func apply(_ policy: LinksPolicy) throws -> [ArchiveEntry] {
        var resolved: [String: String] = [:]
        // Every bad link is reported, not just the first.
        var problems: [PackagingError] = []
        for entry in entries {
            if case .symlink(let target) = entry.content {
                let path: String
                do {
                    path = try resolve(link: entry, target: target)
                } catch let error as PackagingError {
                    problems.append(error)
                    continue
                }
                // A link to its own folder (or a parent) makes a loop for anything that follows links.
                if byPath[path]?.isDirectory == true && entry.path.hasPrefix(path + "/") {
                    problems.append(.linkCycle(path: entry.path, target: target, source: Self.sourceFile(entry)))
                    continue
                }
                resolved[entry.path] = path
            }
        }
        try LayoutProblems.raise(problems)
        guard policy == .copy, !resolved.isEmpty else { return entries }

        var output: [String: ArchiveEntry] = [:]
        for entry in entries {
            guard resolved[entry.path] != nil else {
                output[entry.path] = entry
                continue
            }
            try copy(linkPath: entry.path, into: &output)
        }
        return output.values.sorted { bytewiseLess($0.path, $1.path) }
    }

    /// The file to fix, for the message's `FILE:` prefix: the link on disk, or relctl.toml for a
    /// link made by `[[archive.symlink]]`.
    package static func sourceFile(_ entry: ArchiveEntry) -> String? {
        if entry.origin.hasPrefix("/") { return entry.origin }
        if entry.origin.hasPrefix(ArchiveLayout.symlinkRuleOrigin) {
            return String(entry.origin.dropFirst(ArchiveLayout.symlinkRuleOrigin.count))
        }
        return nil
    }

    /// The path (relative to the top folder) a link finally refers to.
    package func resolve(link: ArchiveEntry, target: String) throws -> String {
        let source = Self.sourceFile(link)
        if target.hasPrefix("/") {
            throw PackagingError.absoluteSymlink(path: link.path, target: target, source: source)
        }
        if target.isEmpty { throw PackagingError.danglingLink(path: link.path, target: target, source: source) }
        var physical: [Substring] = ArchivePath.parent(link.path).split(separator: "/")
        var pending = Self.components(target)
        var hops = 0
        while !pending.isEmpty {
            let part = pending.removeFirst()
            if part == "." { continue }
            if part == ".." {
                guard !physical.isEmpty else {
                    throw PackagingError.linkOutside(path: link.path, target: target, source: source)
                }
                physical.removeLast()
                continue
            }
            let candidate = (physical + [part]).joined(separator: "/")
            guard let node = byPath[candidate] else {
                throw PackagingError.danglingLink(path: link.path, target: target, source: source)
            }
            if case .symlink(let next) = node.content {
                hops += 1
                if hops > Self.maximumHops {
                    throw PackagingError.linkCycle(path: link.path, target: target, source: source)
                }
                if next.hasPrefix("/") {
                    throw PackagingError.absoluteSymlink(path: node.path, target: next, source: Self.sourceFile(node))
                }
                pending = Self.components(next) + pending
                continue
            }
            if !pending.isEmpty && !node.isDirectory {
                throw PackagingError.danglingLink(path: link.path, target: target, source: source)
            }
            physical.append(part)
        }
        let path = physical.joined(separator: "/")
        if path.isEmpty { throw PackagingError.linkCycle(path: link.path, target: target, source: source) }
        return path
    }

    /// A target's parts; a trailing `/` becomes a trailing `.`, which only a folder satisfies
    /// (`README.md/` does not open on disk, so it must not pass here either).
    private static func components(_ target: String) -> [Substring] {
        target.split(separator: "/", omittingEmptySubsequences: true) + (target.hasSuffix("/") ? ["."] : [])
    }

    /// Materialises the link at `linkPath` as a copy of what it resolves to. `apply` has already
    /// refused folder links inside their own target.
    private func copy(linkPath: String, into output: inout [String: ArchiveEntry]) throws {
        guard let link = byPath[linkPath], case .symlink(let target) = link.content else { return }
        let resolvedPath = try resolve(link: link, target: target)
        guard let node = byPath[resolvedPath] else { return }
        if !node.isDirectory {
            output[linkPath] = ArchiveEntry(
                path: linkPath, content: node.content, mode: node.mode,
                origin: "copy of \(resolvedPath) (link \(linkPath))")
            return
        }
        try copyFolder(from: resolvedPath, to: linkPath, into: &output, depth: 0)
    }

    private func copyFolder(
        from source: String, to destination: String, into output: inout [String: ArchiveEntry], depth: Int
    ) throws {
        if destination.hasPrefix(source + "/") || depth > 8 {
            throw PackagingError.linkCycle(path: destination, target: source, source: nil)
        }
        output[destination] = ArchiveEntry(
            path: destination, content: .directory, mode: 0o755, origin: "copy of \(source)")
        let prefix = source + "/"
        for entry in entries where entry.path.hasPrefix(prefix) {
            let copiedPath = destination + "/" + entry.path.dropFirst(prefix.count)
            if case .symlink(let target) = entry.content {
                let inner = try resolve(link: entry, target: target)
                guard let innerNode = byPath[inner] else { continue }
                if innerNode.isDirectory {
                    try copyFolder(from: inner, to: copiedPath, into: &output, depth: depth + 1)
                } else {
                    output[copiedPath] = ArchiveEntry(
                        path: copiedPath, content: innerNode.content, mode: innerNode.mode, origin: "copy of \(inner)")
                }
            } else {
                output[copiedPath] = ArchiveEntry(
                    path: copiedPath, content: entry.content, mode: entry.mode, origin: "copy of \(entry.path)")
            }
        }
    }
}
