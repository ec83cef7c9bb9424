import Foundation

/// One step of `[[ci.setup]]`: a shell script or an action, with the action's inputs, plain
/// environment values and repository secrets. The steps run in every job of the generated
/// workflow, after the checkout, and must leave `relctl` on PATH.
struct CISetupStep: Sendable, Equatable {
    enum Body: Sendable, Equatable {
        /// Shell lines, one `run:` script (bash, like every step of the workflow).
        case run([String])
        /// An action.
        case uses(ActionReference)
    }

    var name: String?
    var body: Body
    /// `with:` inputs of a `uses` step, as strings (TOML booleans and integers are written as text).
    var with: [String: String] = [:]
    /// Plain environment values.
    var env: [String: String] = [:]
    /// Environment variable → repository secret: `env: { VAR: ${{ secrets.NAME }} }`.
    var secrets: [String: String] = [:]
    /// `if:`, a GitHub expression (e.g. `runner.os == 'Windows'`).
    var condition: String?
    /// The jobs that run the step (default: all three); a secret only the release job needs
    /// stays out of the build jobs.
    var jobs: Set<Job> = Set(Job.allCases)

    /// The jobs of the generated workflow.
    enum Job: String, Sendable, CaseIterable, Hashable {
        case plan, build, release
    }

    init(name: String? = nil, body: Body) {
        self.name = name
        self.body = body
    }

    /// The name the step has in the workflow: its own, or one made from what it does.
    func displayName(index: Int) -> String {
        if let name { return name }
        switch body {
        case .uses(let action): return "Set up: \(action.displayName)"
        case .run(let lines):
            let first = lines.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
            let short = first.count > 60 ? String(first.prefix(57)) + "..." : first
            return short.isEmpty
                ? "Set up (step \(index + 1))" : "Set up: \(short.trimmingCharacters(in: .whitespaces))"
        }
    }

    /// A GitHub secret name: letters, digits and underscores, not starting with a digit or `GITHUB_`.
    static func secretNameProblem(_ name: String) -> String? {
        if !isIdentifier(name) {
            return "`\(name)` is not a GitHub secret name (letters, digits and `_`, not starting with a digit)"
        }
        if name.uppercased().hasPrefix("GITHUB_") {
            return "`\(name)` is not a GitHub secret name: names starting with `GITHUB_` are reserved"
        }
        return nil
    }

    /// An environment variable name a shell can read: `[A-Za-z_][A-Za-z0-9_]*`.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII, first == "_" || first.properties.isAlphabetic
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
        }
    }

    /// An action input name: letters, digits, `_` and `-`, not starting with `-`.
    static func isInputName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first != "-" else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0 == "_" || $0 == "-" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
        }
    }

    /// Characters no generated YAML scalar may carry as they are: the C0 and C1 controls but tab
    /// and the line breaks, DEL, U+2028/U+2029 (YAML 1.1 readers break lines there) and a BOM.
    static func unwritableCharacter(in text: String, allowingLineBreaks: Bool) -> Unicode.Scalar? {
        text.unicodeScalars.first { scalar in
            switch scalar.value {
            case 0x09: return false
            case 0x0A, 0x0D: return !allowingLineBreaks
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0xFEFF: return true
            default: return false
            }
        }
    }

    /// A `${{ secrets.NAME }}` expression, the only expression a `with` value may hold.
    static func secretExpression(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("${{"), trimmed.hasSuffix("}}") else { return nil }
        let inner = trimmed.dropFirst(3).dropLast(2).trimmingCharacters(in: .whitespaces)
        guard inner.hasPrefix("secrets.") else { return nil }
        let name = String(inner.dropFirst("secrets.".count))
        return secretNameProblem(name) == nil ? name : nil
    }
}

/// What `uses:` names: an action in a repository at a ref, a local action of this repository,
/// or a Docker image. Parsed (and refused) when relctl.toml is read.
struct ActionReference: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// `OWNER/REPO[/PATH]@REF`.
        case repository(owner: String, repository: String, path: String?, ref: String)
        /// `./PATH` or `$/PATH`: an action of this repository at the commit being released.
        case local(path: String)
        /// `docker://IMAGE@sha256:DIGEST`.
        case docker(image: String)
    }

    var kind: Kind

    /// GitHub's own actions, which the generated workflow itself uses by version tag.
    static let ownOrganisations: Set<String> = ["actions", "github"]

    /// What the workflow says after `uses:`. A local action is written with GitHub's
    /// self-repository syntax `$/`, which resolves to the commit being released whatever the
    /// checkout left in the workspace.
    var text: String {
        switch kind {
        case .repository(let owner, let repository, let path, let ref):
            return "\(owner)/\(repository)\(path.map { "/\($0)" } ?? "")@\(ref)"
        case .local(let path): return "$/\(path)"
        case .docker(let image): return "docker://\(image)"
        }
    }

    var displayName: String {
        switch kind {
        case .repository(let owner, let repository, let path, _):
            return "\(owner)/\(repository)\(path.map { "/\($0)" } ?? "")"
        case .local(let path): return path
        case .docker(let image): return image.split(separator: "@").first.map(String.init) ?? image
        }
    }

    /// True for GitHub's own action at a version tag: written with the same zizmor comment as
    /// the workflow's own `actions/checkout`.
    var isVersionTagOfOwnAction: Bool {
        guard case .repository(let owner, _, _, let ref) = kind else { return false }
        return Self.ownOrganisations.contains(owner.lowercased()) && !Self.isCommitSHA(ref)
    }

    static func isCommitSHA(_ ref: String) -> Bool {
        ref.count == 40
            && ref.unicodeScalars.allSatisfy {
                ("0"..."9").contains($0) || ("a"..."f").contains($0) || ("A"..."F").contains($0)
            }
    }

    /// `v5`, `v5.1`, `v5.1.0`.
    static func isVersionTag(_ ref: String) -> Bool {
        guard ref.hasPrefix("v") else { return false }
        let parts = ref.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
        return (1...3).contains(parts.count)
            && parts.allSatisfy { !$0.isEmpty && $0.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }
    }

    /// Reads a `uses` value; the error says what is wrong and what to write instead.
    static func parse(_ text: String) -> Result<ActionReference, ActionReferenceProblem> {
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

struct ActionReferenceProblem: Error, Sendable, Equatable {
    var message: String
}
