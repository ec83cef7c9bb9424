import Foundation

/// `[apt]`, `[dnf]` and `[repository]`: the signed package repositories `relctl repository` writes
/// into `dist/apt/` and `dist/dnf/`.
public struct RepositorySettings: Sendable, Equatable {
    /// `[apt] suite`: `dists/SUITE`; nil when `[apt]` is absent.
    package var aptSuite: String?
    /// `[dnf] enabled`.
    package var dnf = false
    /// `[repository] signing-key`: an armored OpenPGP secret key file (or env `RELCTL_REPOSITORY_KEY`).
    package var signingKey: String?
    /// `[repository] previous`: the root of the published repository (a folder or URL) to extend.
    package var previous: String?
    /// `[repository] url`: where the published root (holding apt/ and dnf/) is served; the
    /// release notes then tell users how to add it.
    package var url: String?
    /// `[repository] branch`: the branch of the project's remote (`[release] remote`) that
    /// `--publish` commits `apt/` and `dnf/` to (`gh-pages`); nil: not published by relctl.
    package var branch: String?
    /// `[repository] folder`: where in that branch `apt/` and `dnf/` go (default: its root).
    package var folder: String?

    package init() {}

    package var isEnabled: Bool { aptSuite != nil || dnf }

    /// A branch name git takes and a refspec cannot misread: plain components of letters,
    /// digits, `-`, `_` and `.`, none starting with `-` or `.` nor ending in `.lock`.
    package static func isBranchName(_ name: String) -> Bool {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        return !name.isEmpty && name.count <= 200
            && parts.allSatisfy { part in
                !part.isEmpty && part.first != "-" && part.first != "." && !part.hasSuffix(".lock")
                    && part.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || "-_.".contains($0) }
            } && !name.contains("..")
    }
}
