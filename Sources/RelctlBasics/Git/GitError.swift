import Foundation

/// Problems talking to git, with the exit codes the contract gives them.
package enum GitError: RelctlError, CustomStringConvertible {
    case notInstalled
    case notARepository(String)
    case dubiousOwnership(String)
    case unknownRef(String)
    /// A repository without a single commit.
    case noCommits(String)
    case failed(CommandError)

    package var exitCode: RelctlExitCode {
        switch self {
        case .notInstalled, .notARepository, .dubiousOwnership, .unknownRef, .noCommits: return .badInput
        case .failed: return .failure
        }
    }

    package var diagnostics: [Diagnostic] {
        switch self {
        case .notInstalled:
            return [
                Diagnostic(
                    "git is not installed or not on PATH; install it (e.g. `apt-get install git`) and run relctl again")
            ]
        case .notARepository(let path):
            return [
                Diagnostic(file: path, "not inside a git repository; run relctl from a clone (or `git init` first)")
            ]
        case .dubiousOwnership(let path):
            return [
                Diagnostic(
                    file: path,
                    "git refuses this repository because another user owns it; if you trust it, run `git config --global --add safe.directory '\(path)'`"
                )
            ]
        case .unknownRef(let ref):
            return [
                Diagnostic(
                    "git ref `\(ref)` does not exist; check the spelling, or `git fetch --tags` if it lives on the remote"
                )
            ]
        case .noCommits(let path):
            return [
                Diagnostic(
                    file: path,
                    "the repository has no commits yet; commit your work first (notes and versions come from the history)"
                )
            ]
        case .failed(let error):
            return error.diagnostics
        }
    }

    package var description: String { message }
}
