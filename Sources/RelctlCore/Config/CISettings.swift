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
    /// Workflow file path, relative to the project root.
    package var workflow: String = ".github/workflows/release.yml"
    /// Attach GitHub build-provenance attestations to the release files (`actions/attest-build-provenance`).
    package var attest: Bool = false
    package init() {}
}
