import Foundation
import RelctlBasics
import RelctlModel

/// Taking a failed train back: what this run pushed and tagged is removed, newest first, and the
/// pin commits it made are reverted (or, when not yet pushed, dropped), so the repositories are as
/// they were before the run. What could not be taken back is listed in the report.
extension TrainRunner {
    /// Takes back what each attempt created, newest first: the tag (remote and local, only
    /// where it still is this run's object), the pin commit (a revert commit pushed to the
    /// branch; an unpushed one is dropped), and the release's files in dist/.
    func rollBack(_ tag: String, _ attempts: [TrainAttempt], into report: inout TrainReport) async {
        for attempt in attempts where attempt.touched {
            let name = attempt.step.repository.name
            let directory = attempt.step.repository.directory.path
            let remote = attempt.step.remote
            let git = Git(directory: attempt.step.repository.directory, context: context)
            var undone = false
            if let created = attempt.createdTag {
                switch await Result(catching: { try await git.remoteTag(tag, remote: remote) }) {
                case .success(let found?) where found.object == created.object:
                    let result = try? await git.deleteRemoteTag(tag, remote: remote)
                    if result?.succeeded == true, await (try? git.remoteTag(tag, remote: remote)) == .some(nil) {
                        report.rolledBack.append("\(name): deleted \(tag) on \(remote)")
                        undone = true
                    } else {
                        let why = result.map(\.outputTail) ?? "git could not run"
                        report.notRolledBack.append(
                            "\(name): \(tag) on \(remote) (\(why)); delete it with `git -C \(directory) push \(remote) :refs/tags/\(tag)`"
                        )
                    }
                case .success(let found?):
                    context.console.info(
                        "    \(name): \(tag) on \(remote) is \(found.object.prefix(12)), not the tag this run made; left alone"
                    )
                case .success(nil):
                    break
                case .failure:
                    report.notRolledBack.append(
                        "\(name): could not reach \(remote) to check \(tag); if it is \(created.object.prefix(12)) delete it with `git -C \(directory) push \(remote) :refs/tags/\(tag)`"
                    )
                }
                if await git.localTag(tag)?.object == created.object {
                    if await git.deleteLocalTag(tag) {
                        report.rolledBack.append("\(name): deleted local tag \(tag)")
                        undone = true
                    } else {
                        report.notRolledBack.append(
                            "\(name): local tag \(tag); delete it with `git -C \(directory) tag -d \(tag)`")
                    }
                }
            }
            if let pin = attempt.pinCommit {
                undone = await revertPin(pin, attempt: attempt, git: git, into: &report) || undone
            }
            if !attempt.distFiles.isEmpty {
                var removed: [String] = []
                for file in attempt.distFiles {
                    if (try? FileSystem.remove(file)) != nil {
                        removed.append(file.lastPathComponent)
                    } else {
                        report.notRolledBack.append("\(name): \(file.path); remove it with `rm -f '\(file.path)'`")
                    }
                }
                if !removed.isEmpty {
                    report.rolledBack.append(
                        "\(name): removed \(removed.count) file(s) of \(tag) from dist/ (\(removed.joined(separator: ", ")))"
                    )
                    undone = true
                }
            }
            if undone, report.repositories[attempt.step.index].status == .released {
                report.repositories[attempt.step.index].status = .rolledBack
            }
        }
        for line in report.rolledBack { context.console.info("    rolled back: \(line)") }
        for line in report.notRolledBack { context.console.error("not rolled back: \(line)") }
    }

    /// A pushed pin commit is reverted by a new commit pushed on top (history others may have
    /// fetched is never rewritten); an unpushed one, still HEAD, is simply dropped.
    private func revertPin(_ pin: String, attempt: TrainAttempt, git: Git, into report: inout TrainReport) async -> Bool
    {
        let name = attempt.step.repository.name
        let directory = attempt.step.repository.directory.path
        let remote = attempt.step.remote
        let branch = attempt.step.branch ?? "HEAD"
        let short = String(pin.prefix(12))
        if !attempt.pinPushed {
            if await (try? git.commit(of: "HEAD")) == pin,
                await (try? git.runUnchecked(["reset", "--quiet", "--keep", "HEAD~1"]))?.succeeded == true
            {
                report.rolledBack.append("\(name): dropped the unpushed pin commit \(short)")
                return true
            }
            report.notRolledBack.append(
                "\(name): the unpushed pin commit \(short); drop it with `git -C \(directory) revert --no-edit \(pin)`")
            return false
        }
        let revert = try? await git.runUnchecked(["revert", "--no-edit", pin])
        guard revert?.succeeded == true, let head = try? await git.commit(of: "HEAD") else {
            _ = try? await git.runUnchecked(["revert", "--abort"])
            report.notRolledBack.append(
                "\(name): pin commit \(short) on \(remote)/\(branch); revert it with `git -C \(directory) revert --no-edit \(pin) && git -C \(directory) push \(remote) HEAD:refs/heads/\(branch)`"
            )
            return false
        }
        let push = try? await git.pushBranch(branch, remote: remote)
        guard push?.succeeded == true else {
            let why = push.map(\.outputTail) ?? "git could not run"
            report.notRolledBack.append(
                "\(name): the revert \(head.prefix(12)) of pin commit \(short) is committed but not pushed (\(why)); push it with `git -C \(directory) pull --rebase \(remote) \(branch) && git -C \(directory) push \(remote) HEAD:refs/heads/\(branch)`"
            )
            return true
        }
        report.rolledBack.append(
            "\(name): reverted pin commit \(short) with \(head.prefix(12)) and pushed \(branch) to \(remote)")
        return true
    }

    /// Interrupt-time rollback of one repository, with git started directly.
    static func deleteTagNow(_ tag: String, remote: String, in directory: URL) {
        if InterruptActions.git(["ls-remote", "--exit-code", "--tags", remote, "refs/tags/\(tag)"], in: directory) {
            _ = InterruptActions.git(["push", remote, ":refs/tags/\(tag)"], in: directory)
        }
        if InterruptActions.git(["rev-parse", "--verify", "--quiet", "refs/tags/\(tag)"], in: directory) {
            _ = InterruptActions.git(["tag", "-d", tag], in: directory)
        }
    }
}
