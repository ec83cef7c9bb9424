import RelctlBasics

/// Why a maintenance branch cannot release: its next version would leave the `[[branch]]` range.
/// A finding about the history, not bad input (exit 1): the commit or file it names must move.
package enum VersionBumpError: RelctlError, CustomStringConvertible {
    /// A commit since the range's latest release calls for a version outside it (a breaking
    /// change on `5.x`, a `feat` on `5.2.x`).
    case leavesRange(branch: String, range: String, version: String, commit: String, subject: String)
    /// The commits fit, but a manifest's version or existing tags move the next one out.
    case outsideRange(branch: String, range: String, version: String, why: String)

    package var exitCode: RelctlExitCode { .failure }

    package var diagnostics: [Diagnostic] {
        switch self {
        case let .leavesRange(branch, range, version, commit, subject):
            return [
                Diagnostic(
                    "branch `\(branch)` releases within \(range), but commit \(commit.prefix(12)) (\(Console.printable(subject))) calls for \(version); take that change to the default branch (or revert it here), or release it from a branch whose [[branch]] range allows \(version)"
                )
            ]
        case let .outsideRange(branch, range, version, why):
            return [
                Diagnostic(
                    "branch `\(branch)` releases within \(range), but the next version would be \(version) (\(why)); set the manifests back within \(range), or change the branch's [[branch]] range"
                )
            ]
        }
    }

    package var description: String { message }
}
