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

/// A CI service `relctl ci generate` writes a release pipeline for (`[ci] providers`, `--provider`).
/// Keyed by id like the other registries: an unknown id is refused with the known ones listed.
public enum CIProvider: String, Sendable, CaseIterable, Hashable {
    /// GitHub Actions: `[ci] workflow`, `.github/workflows/release.yml` by default.
    case github
    /// GitLab CI/CD: `.gitlab-ci.yml`, the file GitLab reads by default.
    case gitlab

    /// The ids, in the order `ci generate` writes the files.
    public static var ids: [String] { allCases.map(\.rawValue) }

    /// "unknown CI provider `x`; known providers: github, gitlab".
    package static func unknown(_ id: String) -> String {
        "unknown CI provider `\(id)`; known providers: \(ids.joined(separator: ", "))"
    }
}

/// `[ci] relctl`: how the default "Install relctl" step of the GitHub workflow gets relctl onto a
/// runner. docs/matrix.md names the trade-off.
package enum RelctlInstallMode: String, Sendable, CaseIterable {
    /// Clone relctl at the tag of the version that generated the workflow and build it with the
    /// runner's Swift: minutes per job, trusting only the tagged source.
    case source
    /// Download that version's published archive for the runner, checked against the release's
    /// SHA256SUMS (and SHA256SUMS.minisig with `[ci] relctl-minisign-key`) before it runs: seconds,
    /// trusting whoever published the archive.
    case release

    package static var ids: [String] { allCases.map(\.rawValue) }

    /// "unknown value `x` …; relctl installs by one of "source", "release"".
    package static func unknown(_ shown: String) -> String {
        "unknown value `\(shown)`; allowed: \(ids.map { "\"\($0)\"" }.joined(separator: ", ")) (\"source\" builds relctl from its tagged source in every job, \"release\" downloads its published archive, checked against SHA256SUMS)"
    }
}

/// Rules for config values relctl writes into the generated workflow (and into names of files,
/// installers and signatures). A line break there would start a new YAML key or step; a
/// `${{ … }}` expression is expanded by GitHub before the step sees it (template injection, which
/// no quoting can prevent: Actions expands expressions inside quoted scalars too). Such values are
/// refused when the config is read, so `check` says so and nothing is generated from them.
package enum WorkflowValue {
    /// Why `text` cannot be written into a workflow, or nil when it can.
    package static func problem(in text: String) -> String? {
        if let bad = CISetupStep.unwritableCharacter(in: text, allowingLineBreaks: false) {
            let code = "U+" + String(bad.value, radix: 16, uppercase: true).leftPadded(to: 4)
            return bad == "\n" || bad == "\r"
                ? "holds a line break; write it on one line"
                : "holds the control character \(code); remove it"
        }
        if text.contains("${{") {
            return
                "holds `${{`, which GitHub Actions expands as an expression in the generated workflow (template injection); remove it"
        }
        return nil
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}
