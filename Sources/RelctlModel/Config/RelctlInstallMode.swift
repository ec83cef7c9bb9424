import RelctlBasics

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
