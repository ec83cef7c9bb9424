import Foundation

/// The one rule for a path relctl writes to inside a folder it does not own the contents of (a
/// cloned tap or bucket, a fork, a published tree): the path is relative, made of plain
/// components, and no component that already exists is a symbolic link. A link there (a
/// `Formula` committed as a link to `/home/you/.ssh`) would carry the write out of the folder, so
/// it is refused before anything is written, dry run or not.
public enum ConfinedPath {
    /// True for a relative path of plain components (no `.`, `..` or empty one): the shape of a
    /// name relctl accepts from a plugin's answer, a release's lists or a write into a clone.
    package static func isPlainRelative(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/")
            && path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
                !$0.isEmpty && $0 != "." && $0 != ".."
            }
    }

    /// `relative` under `root`, checked component by component with lstat(2).
    package static func resolve(_ relative: String, in root: URL, what: String) throws -> URL {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard isPlainRelative(relative) else {
            throw ConfinedPathError.notRelative(path: relative, root: root.path, what: what)
        }
        var current = root
        for part in parts {
            current = current.appendingPathComponent(String(part))
            if FileSystem.statusIfPresent(atPath: current.path, followingLinks: false)?.kind == .symlink {
                let target = (try? FileSystem.symlinkDestination(atPath: current.path)) ?? "?"
                throw ConfinedPathError.link(path: current.path, target: target, root: root.path, what: what)
            }
        }
        return current
    }
}

/// A path that would leave the folder it must stay in.
public enum ConfinedPathError: RelctlError {
    case notRelative(path: String, root: String, what: String)
    case link(path: String, target: String, root: String, what: String)
    /// A path to read leads out of `root`: through `link` (to `target`), or by `..` or an absolute
    /// path when `link` is nil.
    case outside(path: String, link: String?, target: String, root: String, what: String)
    /// More links than the kernel would follow (a loop).
    case loop(path: String, link: String, root: String, what: String)

    public var exitCode: RelctlExitCode { .badInput }

    /// The step that leaves the folder, for a caller's own message.
    package var step: String {
        switch self {
        case let .outside(_, link?, target, _, _):
            "the link \(Console.printable(link)) (to \(Console.printable(target)))"
        case let .link(path, target, _, _): "the link \(Console.printable(path)) (to \(Console.printable(target)))"
        case .outside(let path, nil, _, _, _), .notRelative(let path, _, _):
            "`\(Console.printable(path))` (`..` above it, or an absolute path elsewhere)"
        case let .loop(_, link, _, _):
            "more than \(ConfinedPath.linkLimit) links (a loop at \(Console.printable(link))?)"
        }
    }

    public var diagnostics: [Diagnostic] {
        switch self {
        case let .notRelative(path, root, what):
            [
                Diagnostic(
                    "\(what): `\(Console.printable(path))` is not a plain relative path inside \(root); relctl writes only below the folder it was given"
                )
            ]
        case let .link(path, target, root, what):
            [
                Diagnostic(
                    file: path,
                    "\(what): is a symbolic link (to \(Console.printable(target))), so writing through it could leave \(root); relctl never writes through links: replace the link with a real folder in that repository"
                )
            ]
        case let .outside(path, link?, target, root, what):
            [
                Diagnostic(
                    "\(what): `\(Console.printable(path))` passes through the link \(Console.printable(link)) (to \(Console.printable(target))), which leads outside \(root); relctl reads only files inside it: replace the link with the file itself, or a link that stays inside"
                )
            ]
        case let .outside(path, nil, _, root, what):
            [
                Diagnostic(
                    "\(what): `\(Console.printable(path))` leads outside \(root) (`..` above it, or an absolute path elsewhere); relctl reads only files inside it: name a file in the project"
                )
            ]
        case let .loop(path, link, _, what):
            [
                Diagnostic(
                    "\(what): `\(Console.printable(path))` passes through more than \(ConfinedPath.linkLimit) links (a loop at \(Console.printable(link))?); replace the links with the file itself"
                )
            ]
        }
    }
}

extension ConfinedPath {
    /// The most links one path may pass through, as Linux's own limit (`ELOOP` after 40).
    package static let linkLimit = 40

    /// The one rule for a path read from configuration, a manifest or a plugin's answer (a chart
    /// folder, a `[[package]]` file, a license file, a file a channel names): `path`, relative to
    /// `root` (or absolute, naming a place inside it), resolved inside `root` as the kernel would
    /// resolve it, component by component, except that a step out of `root` (`..` above it, a link
    /// to a place elsewhere, absolute or relative) is refused, naming the link and its target. A
    /// loop, or more than `linkLimit` links, is refused too, so the walk is bounded.
    ///
    /// The result holds no link (each was replaced by what it points to), so reading it reads the
    /// file inside `root`. It may not exist (a missing file, or a dangling link into `root`): the
    /// caller says what is missing.
    package static func resolveInside(_ path: String, root: URL, what: String) throws -> URL {
        let givenRoot = root.standardizedFileURL.path
        let realRoot = FileSystem.realPath(givenRoot) ?? givenRoot
        var pending: [Substring] = []
        if path.hasPrefix("/") {
            guard let rest = relativeRemainder(of: path, under: [realRoot, givenRoot]) else {
                throw ConfinedPathError.outside(path: path, link: nil, target: path, root: givenRoot, what: what)
            }
            pending = rest
        } else {
            pending = path.split(separator: "/", omittingEmptySubsequences: true)
        }
        pending.reverse()  // a stack: the next component is the last
        var resolved: [String] = []
        var links = 0
        // The last link followed, named when a `..` it brought climbs out of `root`.
        var lastLink: (link: String, target: String)?
        func current() -> String { ([realRoot == "/" ? "" : realRoot] + resolved).joined(separator: "/") }
        while let part = pending.popLast() {
            if part == "." { continue }
            if part == ".." {
                guard !resolved.isEmpty else {
                    throw ConfinedPathError.outside(
                        path: path, link: lastLink?.link, target: lastLink?.target ?? "..", root: givenRoot, what: what)
                }
                resolved.removeLast()
                continue
            }
            let candidate = current() + "/" + part
            guard let target = linkTarget(candidate) else {
                resolved.append(String(part))
                continue
            }
            links += 1
            lastLink = (candidate, target)
            guard links <= linkLimit else {
                throw ConfinedPathError.loop(path: path, link: candidate, root: givenRoot, what: what)
            }
            var replacement: [Substring]
            if target.hasPrefix("/") {
                guard let rest = relativeRemainder(of: target, under: [realRoot, givenRoot]) else {
                    throw ConfinedPathError.outside(
                        path: path, link: candidate, target: target, root: givenRoot, what: what)
                }
                resolved = []
                replacement = rest
            } else {
                replacement = target.split(separator: "/", omittingEmptySubsequences: true)
            }
            replacement.reverse()
            pending += replacement
        }
        // Built from "/" and components, so absolute: a location by itself (AbsolutePath).
        return (AbsolutePath(absolute: current()) ?? .root).url
    }

    /// The components of absolute `path` below the first of `roots` it lies in, or nil.
    private static func relativeRemainder(of path: String, under roots: [String]) -> [Substring]? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        for root in roots {
            let rootParts = root.split(separator: "/", omittingEmptySubsequences: true)
            if parts.count >= rootParts.count, Array(parts.prefix(rootParts.count)) == rootParts {
                return Array(parts.dropFirst(rootParts.count))
            }
        }
        return nil
    }

    /// What the link at `path` points to, as written (readlink(2)); nil when `path` is not a link.
    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
