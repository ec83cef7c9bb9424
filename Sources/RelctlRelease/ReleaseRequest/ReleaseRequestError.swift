import Foundation
import RelctlBasics

/// Problems of `relctl release-pr`. A commit relctl did not make on its branch stops the run
/// (exit 1) so it is never lost; a repository state it cannot work from is bad input (exit 2).
package enum ReleaseRequestError: RelctlError {
    /// The release branch holds a commit relctl did not push (a maintainer's fix, a merge from base).
    case foreignCommit(branch: String, commit: String, subject: String, author: String)
    /// HEAD is no branch and the CI variables name none.
    case detachedHead
    /// `git push` refused (the branch moved between the look and the push, or the remote refuses).
    case pushFailed(branch: String, output: String)
    /// The plan recomputed where it is written differs from the one read here (a relctl bug).
    case planDiffers(expected: [String], scratch: [String])

    package var exitCode: RelctlExitCode {
        switch self {
        case .foreignCommit, .pushFailed, .planDiffers: .failure
        case .detachedHead: .badInput
        }
    }

    package var diagnostics: [Diagnostic] {
        switch self {
        case let .foreignCommit(branch, commit, subject, author):
            [
                Diagnostic(
                    "\(branch) holds commit \(commit) (\"\(subject)\" by \(author)) that relctl did not push; it is left as it is: fold it into the base branch, or run again with --force to replace it"
                )
            ]
        case .detachedHead:
            [
                Diagnostic(
                    "HEAD is not on a branch, so there is no base branch for the release request: check out the default branch (or set CI_COMMIT_BRANCH / GITHUB_REF_NAME)"
                )
            ]
        case let .planDiffers(expected, scratch):
            [
                Diagnostic(
                    "the release commit would raise \(scratch.joined(separator: ", ")) where the plan says \(expected.joined(separator: ", ")); nothing was pushed. This is a relctl bug: please report it with `relctl plan --json`"
                )
            ]
        case let .pushFailed(branch, output):
            [
                Diagnostic(
                    "pushing \(branch) failed (the branch may have moved since it was read; run again): \(output.trimmingCharacters(in: .whitespacesAndNewlines))"
                )
            ]
        }
    }
}
