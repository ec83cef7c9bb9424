import Foundation
import RelctlBasics

/// `[ci]`: how the generated workflow prepares a runner.
package struct CISettings: Sendable {
    /// Shell lines that put `relctl` on PATH in every job (default: build it from source with Swift).
    package var setup: [String] = []
    /// `[[ci.setup]]`: steps (shell or `uses:` actions, with inputs, env and secrets) that put
    /// `relctl` on PATH in every job; replaces `setup` and the default.
    package var setupSteps: [CISetupStep] = []
    /// True when neither form is set: the workflow builds relctl from source.
    package var usesDefaultSetup: Bool { setup.isEmpty && setupSteps.isEmpty }
    /// `[ci] relctl`: what the default setup installs, relctl built from source or its published archive.
    package var relctl: RelctlInstallMode = .source
    /// `[ci] relctl-minisign-key`: the minisign public key relctl's SHA256SUMS must be signed with
    /// (`relctl = "release"` only), as `minisign -P` takes it.
    package var relctlMinisignKey: String?
    /// Workflow file path, relative to the project root.
    package var workflow: String = ".github/workflows/release.yml"
    /// Attach GitHub build-provenance attestations to the release files (`actions/attest-build-provenance`).
    package var attest: Bool = false
    /// `[ci] providers`: the CI services `relctl ci generate` writes a pipeline for, in
    /// `CIProvider` order (GitHub Actions unless the project says otherwise).
    package var providers: [CIProvider] = [.github]
    /// `[ci] release-pr`: also generate the job that runs `relctl release --pending --push --publish`
    /// and `relctl release-pr` on every push to the default branch.
    package var releasePR = false
    package init() {}
}
