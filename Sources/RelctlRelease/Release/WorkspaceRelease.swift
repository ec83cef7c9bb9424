import Foundation
import RelctlBasics
import RelctlProject

/// `relctl release --pending` in a `[workspace]`: every member whose manifests hold a version
/// without a tag, in the order given (dependencies first), each through the normal pipeline with
/// its own configuration, notes, archives and channels.
///
/// The members are tagged all or none, and their tags pushed together: each member's pipeline
/// stops after its tag at a gate (`TagGate`) and waits, holding its own lock, while the next
/// member runs up to its tag. When every member has arrived, one `git push --atomic` sends all
/// the tags; then the members finish one after another (dist/, images, publishing). When a
/// member fails before the gate, or the push is refused, the gate closes: every waiting member
/// fails there and its pipeline undoes what it did (its tag, its staged files), as a single
/// release does when a stage fails. A dry run needs no gate: each member rehearses in its own
/// scratch clone.
package enum WorkspaceRelease {
    /// What happened to one member.
    package struct MemberResult: Sendable {
        package var member: String
        package var tag: String
        /// Nil when the member never started (an earlier member failed).
        package var outcome: ReleaseOutcome?
        /// An error the pipeline threw instead of reporting it in its outcome.
        package var thrown: (any RelctlError)?

        package var error: (any RelctlError)? { thrown ?? outcome?.error }
    }

    package static func run(
        _ options: ReleaseOptions, releases: [(member: WorkspaceMember, tag: String)], context: Context
    ) async -> [MemberResult] {
        guard !options.dryRun else {
            var results: [MemberResult] = []
            for (member, tag) in releases {
                let memberOptions = options.forMember(member, tag: tag)
                results.append(
                    await outcome(of: ReleasePipeline(), memberOptions, member: member, context: context))
            }
            return results
        }

        let gate = TagGate()
        var tasks: [Task<MemberResult, Never>] = []
        var failed: Int?
        for (index, (member, tag)) in releases.enumerated() {
            let memberOptions = options.forMember(member, tag: tag)
            let pipeline = ReleasePipeline(stages: gatedStages(gate, index: index, push: options.push))
            tasks.append(
                Task {
                    let result = await outcome(of: pipeline, memberOptions, member: member, context: context)
                    await gate.ended(index)
                    return result
                })
            if await gate.next(index) == .ended {
                failed = index
                break
            }
        }

        if let failed {
            await gate.close(reason: "\(releases[failed].member.name) (\(releases[failed].tag)) failed")
        } else if options.push {
            let refused = await pushTogether(releases, context: context)
            if let refused { await gate.close(reason: refused) }
        }
        var results: [MemberResult] = []
        for (index, task) in tasks.enumerated() {
            await gate.open(index)
            results.append(await task.value)
        }
        for (member, tag) in releases.dropFirst(tasks.count) {
            results.append(MemberResult(member: member.name, tag: tag, outcome: nil, thrown: nil))
        }
        return results
    }

    /// The standard stages with the gate right after the tag stage.
    static func gatedStages(_ gate: TagGate, index: Int, push: Bool) -> [any ReleaseStage] {
        var stages = ReleasePipeline.standardStages
        let tag = stages.firstIndex { $0 is TagStage } ?? stages.count - 1
        stages.insert(TagGateStage(gate: gate, index: index, push: push), at: tag + 1)
        return stages
    }

    private static func outcome(
        of pipeline: ReleasePipeline, _ options: ReleaseOptions, member: WorkspaceMember, context: Context
    ) async -> MemberResult {
        do {
            let outcome = try await pipeline.run(options, config: member.config, context: context)
            return MemberResult(member: member.name, tag: options.tag, outcome: outcome, thrown: nil)
        } catch let error as RelctlError {
            return MemberResult(member: member.name, tag: options.tag, outcome: nil, thrown: error)
        } catch {
            return MemberResult(
                member: member.name, tag: options.tag, outcome: nil,
                thrown: ReleaseError.workspaceFailed(reason: "\(error)"))
        }
    }

    /// One push per remote of every tag made, atomic where the remote allows; nil when all went,
    /// else why not (then nothing this run made stays on the remote: an atomic push sends nothing,
    /// and what a non-atomic one sent is deleted again while it is still our tag object).
    private static func pushTogether(
        _ releases: [(member: WorkspaceMember, tag: String)], context: Context
    ) async -> String? {
        var byRemote: [(remote: String, directory: URL, tags: [String])] = []
        for (member, tag) in releases {
            let remote = member.config.release.remote
            if let index = byRemote.firstIndex(where: { $0.remote == remote }) {
                byRemote[index].tags.append(tag)
            } else {
                byRemote.append((remote, member.config.root, [tag]))
            }
        }
        var pushed: [(git: Git, remote: String, tags: [String])] = []
        for (remote, directory, tags) in byRemote {
            let git = Git(directory: directory, context: context)
            var refusal: String?
            do {
                let (result, atomic) = try await git.pushTags(tags, remote: remote)
                if result.succeeded {
                    let how = atomic ? "in one atomic push" : "in one push (the remote does not support --atomic)"
                    context.console.info("pushed \(tags.joined(separator: ", ")) to \(remote) \(how)")
                    pushed.append((git, remote, tags))
                    continue
                }
                // Without --atomic some tags may have gone.
                if !atomic { pushed.append((git, remote, tags)) }
                refusal = "\(remote) refused the push of \(tags.joined(separator: ", ")): \(result.outputTail)"
            } catch {
                refusal = "could not push \(tags.joined(separator: ", ")) to \(remote): \(error)"
            }
            // Take back what went, while each tag there is still the object this run made.
            for (git, remote, tags) in pushed {
                for tag in tags {
                    let object = try? await git.run(["rev-parse", "refs/tags/\(tag)"])
                    _ = try? await git.deleteRemoteTag(
                        tag, remote: remote, ifAt: object?.trimmingCharacters(in: .whitespacesAndNewlines))
                }
            }
            return refusal
        }
        return nil
    }
}

extension ReleaseOptions {
    /// One member's options: its tag, and `--artifacts DIR` read as `DIR/<member path>` (the
    /// tree the workspace workflow's build jobs leave: each member's binaries under its folder),
    /// for a member that has targets.
    func forMember(_ member: WorkspaceMember, tag: String) -> ReleaseOptions {
        var options = self
        options.tag = tag
        // A member that builds nothing (tag-only) has no binaries there to look for.
        options.artifactsDirectory =
            member.config.targets.isEmpty ? nil : artifactsDirectory.map { $0.appendingPathComponent(member.path) }
        return options
    }
}

/// Where each member's release waits after its tag until every member is tagged (and, with
/// `--push`, the tags are pushed), then continues in turn; or fails, when the gate is closed.
actor TagGate {
    enum Signal: Sendable, Equatable {
        /// The member's release is waiting at the gate.
        case arrived
        /// The member's release ended without reaching it (it failed, or had no tag to make).
        case ended
    }

    private var signals: [Int: Signal] = [:]
    private var watcher: (index: Int, continuation: CheckedContinuation<Signal, Never>)?
    private var waiting: [Int: CheckedContinuation<Void, any Error>] = [:]
    private var opened: Set<Int> = []
    private var closedReason: String?

    /// Called by member `index`'s gate stage: returns when its turn comes, throws when closed.
    func arrive(_ index: Int) async throws {
        record(index, .arrived)
        if let closedReason { throw WorkspaceReleaseError.heldBack(reason: closedReason) }
        if opened.contains(index) { return }
        try await withCheckedThrowingContinuation { waiting[index] = $0 }
    }

    /// Called when member `index`'s release has ended, whether or not it arrived.
    func ended(_ index: Int) { record(index, .ended) }

    /// Waits until member `index` arrives or ends.
    func next(_ index: Int) async -> Signal {
        if let signal = signals[index] { return signal }
        return await withCheckedContinuation { watcher = (index, $0) }
    }

    /// Fails every member waiting now or arriving later.
    func close(reason: String) {
        closedReason = reason
        for continuation in waiting.values {
            continuation.resume(throwing: WorkspaceReleaseError.heldBack(reason: reason))
        }
        waiting = [:]
    }

    /// Lets member `index` go on (or fail, when closed).
    func open(_ index: Int) {
        opened.insert(index)
        waiting.removeValue(forKey: index)?.resume()
    }

    private func record(_ index: Int, _ signal: Signal) {
        guard signals[index] == nil else { return }
        signals[index] = signal
        if let watcher, watcher.index == index {
            self.watcher = nil
            watcher.continuation.resume(returning: signal)
        }
    }
}

/// The gate as a stage: after `tag`, before `push`. Failing here undoes the member's tag and
/// staged files through the pipeline's normal undo.
struct TagGateStage: ReleaseStage {
    let gate: TagGate
    let index: Int
    let push: Bool

    var name: String { "members" }
    var needs: Set<ReleaseFact> { [.tag] }
    var needsPassingPreflight: Bool { true }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        try await gate.arrive(index)
        return push ? "every pending member tagged; the tags pushed together" : "every pending member tagged"
    }
}

/// Why a member of `release --pending` was not released.
package enum WorkspaceReleaseError: RelctlError {
    /// Another member failed, or the tags' push was refused: this member's tag was taken back.
    case heldBack(reason: String)
    /// An earlier member failed before this one started.
    case notStarted(member: String)

    package var exitCode: RelctlExitCode { .failure }

    package var diagnostics: [Diagnostic] {
        switch self {
        case .heldBack(let reason):
            [
                Diagnostic(
                    "not released because \(reason): the members are tagged all or none, so this member's tag was taken back; fix that and run `relctl release --pending` again"
                )
            ]
        case .notStarted(let member):
            [
                Diagnostic(
                    "\(member) was not started: an earlier member failed, and the members are released all or none")
            ]
        }
    }
}
