import Foundation
import RelctlBasics

/// What `uses:` names: an action in a repository at a ref, a local action of this repository,
/// or a Docker image. Parsed (and refused) when relctl.toml is read.
package struct ActionReference: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// `OWNER/REPO[/PATH]@REF`.
        case repository(owner: String, repository: String, path: String?, ref: String)
        /// `./PATH` or `$/PATH`: an action of this repository at the commit being released.
        case local(path: String)
        /// `docker://IMAGE@sha256:DIGEST`.
        case docker(image: String)
    }

    package var kind: Kind

    /// GitHub's own actions, which the generated workflow itself uses by version tag.
    package static let ownOrganisations: Set<String> = ["actions", "github"]

    /// What the workflow says after `uses:`. A local action is written with GitHub's
    /// self-repository syntax `$/`, which resolves to the commit being released whatever the
    /// checkout left in the workspace.
    package var text: String {
        switch kind {
        case .repository(let owner, let repository, let path, let ref):
            return "\(owner)/\(repository)\(path.map { "/\($0)" } ?? "")@\(ref)"
        case .local(let path): return "$/\(path)"
        case .docker(let image): return "docker://\(image)"
        }
    }

    package var displayName: String {
        switch kind {
        case .repository(let owner, let repository, let path, _):
            return "\(owner)/\(repository)\(path.map { "/\($0)" } ?? "")"
        case .local(let path): return path
        case .docker(let image): return image.split(separator: "@").first.map(String.init) ?? image
        }
    }

    /// True for GitHub's own action at a version tag: written with the same zizmor comment as
    /// the workflow's own `actions/checkout`.
    package var isVersionTagOfOwnAction: Bool {
        guard case .repository(let owner, _, _, let ref) = kind else { return false }
        return Self.ownOrganisations.contains(owner.lowercased()) && !Self.isCommitSHA(ref)
    }

    package static func isCommitSHA(_ ref: String) -> Bool {
        ref.count == 40
            && ref.unicodeScalars.allSatisfy {
                ("0"..."9").contains($0) || ("a"..."f").contains($0) || ("A"..."F").contains($0)
            }
    }

    /// `v5`, `v5.1`, `v5.1.0`.
    package static func isVersionTag(_ ref: String) -> Bool {
        guard ref.hasPrefix("v") else { return false }
        let parts = ref.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
        return (1...3).contains(parts.count)
            && parts.allSatisfy { !$0.isEmpty && $0.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }
    }

    /// Reads a `uses` value; the error says what is wrong and what to write instead.
    package static func parse(_ text: String) -> Result<ActionReference, ActionReferenceProblem> {
        func refused(_ why: String) -> Result<ActionReference, ActionReferenceProblem> {
            .failure(ActionReferenceProblem(message: "`uses = \"\(text)\"`: \(why)"))
        }
        if text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 }) {
            return refused("an action reference has no blanks or control characters")
        }
        if text.hasPrefix("./") || text.hasPrefix("$/") {
            let path = String(text.dropFirst(2))
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            if path.isEmpty || parts.contains("..") || parts.contains("") || path.contains("@") {
                return refused(
                    "a local action is a folder of this repository holding action.yml, e.g. `./.github/actions/setup` (no `..`, no `@ref`: it runs at the commit being released)"
                )
            }
            return .success(ActionReference(kind: .local(path: path)))
        }
        if text.hasPrefix("docker://") {
            let image = String(text.dropFirst("docker://".count))
            guard let at = image.range(of: "@sha256:"),
                image[at.upperBound...].count == 64,
                image[at.upperBound...].unicodeScalars.allSatisfy({
                    ("0"..."9").contains($0) || ("a"..."f").contains($0)
                }), !image[..<at.lowerBound].isEmpty
            else {
                return refused(
                    "pin the image by digest (`docker://IMAGE@sha256:<64 hex digits>`): a tag can be moved to other code after you review it"
                )
            }
            return .success(ActionReference(kind: .docker(image: image)))
        }
        let pieces = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        let slug = pieces[0].split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let namePart: (String) -> Bool = { part in
            !part.isEmpty && part != "." && part != ".."
                && part.unicodeScalars.allSatisfy {
                    $0.isASCII
                        && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0))
                }
        }
        guard slug.count >= 2, slug.allSatisfy(namePart) else {
            return refused(
                "write `OWNER/REPO@REF` (optionally `OWNER/REPO/PATH@REF`), a local action `./PATH`, or `docker://IMAGE@sha256:DIGEST`"
            )
        }
        let owner = slug[0], repository = slug[1]
        let path = slug.count > 2 ? slug.dropFirst(2).joined(separator: "/") : nil
        let own = ownOrganisations.contains(owner.lowercased())
        let resolve = "`git ls-remote https://github.com/\(owner)/\(repository) REF` prints the SHA of a tag or branch"
        guard pieces.count == 2, !pieces[1].isEmpty else {
            return refused(
                own
                    ? "no version: write `\(pieces[0])@vN` (a version tag of GitHub's own action) or a full commit SHA"
                    : "no version: pin a full 40-character commit SHA, `\(pieces[0])@<sha>` (\(resolve))")
        }
        let ref = String(pieces[1])
        if isCommitSHA(ref) || (own && isVersionTag(ref)) {
            return .success(
                ActionReference(kind: .repository(owner: owner, repository: repository, path: path, ref: ref)))
        }
        if own {
            return refused(
                "GitHub's own actions are used by version tag (`@v5`, `@v5.1.0`) or full commit SHA; `\(ref)` is neither (a branch moves under the release)"
            )
        }
        return refused(
            "`\(ref)` is not a commit SHA: an action outside GitHub's own `actions/` runs with the release job's token and secrets, and a tag or branch can be moved to other code after you review it; pin the full 40-character commit SHA (\(resolve))"
        )
    }
}

/// Why a `uses:` reference is refused.
package struct ActionReferenceProblem: Error, Sendable, Equatable {
    package var message: String
}
