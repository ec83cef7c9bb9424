import Foundation
import RelctlBasics

/// Where packaged inputs may come from: the project (the repository's files), or, for binaries
/// read with `--artifacts`, that folder. A committed `LICENSE -> /etc/secret` or a tree root
/// linking elsewhere is refused like a link inside a tree. The walk is the one path rule,
/// `ConfinedPath.resolveInside`; only the check is made here, the archive still reads `source` as
/// given, so what is packaged (and its bytes) does not depend on how the check resolves it.
package struct Containment {
    package let roots: [URL]

    package init(root: URL, binaryRoot: URL?) {
        roots = [root] + (binaryRoot.map { [$0] } ?? [])
    }

    /// Refuses `source` when `..` or a link on its way leads out of the root it lies in.
    package func check(_ source: URL, key: String) throws {
        var refusals: [ConfinedPathError] = []
        for root in roots {
            do {
                _ = try ProjectFile.open(source.path, in: root, what: key)
                return
            } catch let error as ConfinedPathError {
                refusals.append(error)
            }
        }
        // The refusal that names a link says more than "not below this root at all".
        let refusal = refusals.first { $0.passesThroughLink } ?? refusals.first
        throw PackagingError.outsideProject(path: source.path, through: refusal?.step ?? "`\(source.path)`", key: key)
    }
}

extension ConfinedPathError {
    /// Whether the path left its root through a link (rather than by `..` or an absolute path).
    fileprivate var passesThroughLink: Bool {
        switch self {
        case .outside(_, let link, _, _, _): link != nil
        case .link, .loop: true
        case .notRelative: false
        }
    }
}
