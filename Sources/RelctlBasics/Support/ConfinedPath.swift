import Foundation

/// The one rule for a path relctl writes to inside a folder it does not own the contents of (a
/// cloned tap or bucket, a fork, a published tree): the path is relative, made of plain
/// components, and no component that already exists is a symbolic link. A link there (a
/// `Formula` committed as a link to `/home/you/.ssh`) would carry the write out of the folder, so
/// it is refused before anything is written, dry run or not.
public enum ConfinedPath {
    /// `relative` under `root`, checked component by component with lstat(2).
    package static func resolve(_ relative: String, in root: URL, what: String) throws -> URL {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !relative.isEmpty, !relative.hasPrefix("/"), parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." })
        else {
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

    public var exitCode: RelctlExitCode { .badInput }

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
        }
    }
}
