import Foundation
import RelctlBasics
import RelctlModel

/// Why a release stopped, with the contract's exit code (1 unless the input itself was bad).
enum ReleaseError: RelctlError, CustomStringConvertible {
    /// Every preflight problem, reported together.
    case preflight([Diagnostic], exitCode: RelctlExitCode)
    /// Another release holds the repository's lock.
    case locked(path: String, holder: ReleaseLock.Holder)
    /// A stage failed; `cause` says why and `cleanup` what was undone.
    case stageFailed(stage: String, cause: [Diagnostic], cleanup: [String], exitCode: RelctlExitCode)
    /// The remote refused the tag; the local tag has been deleted (or could not be).
    case pushRejected(tag: String, remote: String, output: String, localTagDeleted: Bool)
    /// Something other than a lock relctl wrote sits at the lock's path; `reason` says what and how to remove it.
    case unreadableLock(path: String, reason: String)
    /// A resumed release built other archives than the tag the killed run pushed lists.
    case resumedTagDiffers(reason: String)
    /// Another release created the lock between our check and our attempt.
    case lockRace(path: String)
    /// The project is not in a git repository, so there is nothing to lock.
    case notInRepository(path: String)
    /// The workspace could not be opened, for a reason that is not relctl's own error.
    case workspaceFailed(reason: String)
    /// `git tag` failed; `hint` says what to check (signing).
    case tagNotCreated(cause: any RelctlError, hint: String)
    /// `[release] remote` does not exist in the repository.
    case noRemote(String)
    /// `git push --dry-run` of the tag failed; `output` is the tail of git's output.
    case pushRehearsalFailed(tag: String, remote: String, output: String)

    var exitCode: RelctlExitCode {
        switch self {
        case .preflight(_, let code): return code
        case .locked, .pushRejected, .lockRace, .unreadableLock, .resumedTagDiffers, .notInRepository, .workspaceFailed,
            .noRemote,
            .pushRehearsalFailed:
            return .failure
        case .stageFailed(_, _, _, let code): return code
        case .tagNotCreated(let cause, _): return cause.exitCode
        }
    }

    var diagnostics: [Diagnostic] {
        switch self {
        case .lockRace(let path):
            return [
                Diagnostic(
                    file: path, "cannot take the release lock; another relctl release started at the same moment")
            ]
        case .notInRepository(let path):
            return [Diagnostic(file: path, "not inside a git repository")]
        case let .unreadableLock(path, reason):
            return [Diagnostic(file: path, reason)]
        case .resumedTagDiffers(let reason):
            return [Diagnostic(reason)]
        case .workspaceFailed(let reason):
            return [Diagnostic(reason)]
        case let .tagNotCreated(cause, hint):
            return [Diagnostic(cause.message + hint)]
        case .noRemote(let remote):
            return [Diagnostic("no remote `\(remote)` to push to")]
        case let .pushRehearsalFailed(tag, remote, output):
            return [Diagnostic("`git push --dry-run \(remote) \(tag)` failed: \(output)")]
        case .preflight(let problems, _):
            return problems
        case .locked(let path, let holder):
            return [
                Diagnostic(
                    file: path,
                    "another release is running: \(holder.summary); wait for it to finish (or, if that process is gone, delete this file)"
                )
            ]
        case .stageFailed(let stage, let cause, let cleanup, _):
            let first = cause.first.map { "stage `\(stage)` failed: \($0.description)" } ?? "stage `\(stage)` failed"
            return [Diagnostic(first)] + cause.dropFirst() + cleanup.map { Diagnostic($0) }
        case .pushRejected(let tag, let remote, let output, let deleted):
            let tail = output.split(separator: "\n").filter { !$0.isEmpty }.suffix(6).joined(separator: "\n    ")
            let undo =
                deleted
                ? "the local tag \(tag) was deleted, so nothing was released; fix the remote (permissions, protected tags, hooks) and run again"
                : "the local tag \(tag) could NOT be deleted; remove it with `git tag -d \(tag)` before running again"
            return [
                Diagnostic("\(remote) rejected the push of tag \(tag); \(undo)" + (tail.isEmpty ? "" : "\n    " + tail))
            ]
        }
    }

    var description: String { message }
}
