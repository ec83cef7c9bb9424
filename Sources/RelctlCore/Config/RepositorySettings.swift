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

    package init() {}

    package var isEnabled: Bool { aptSuite != nil || dnf }
}
