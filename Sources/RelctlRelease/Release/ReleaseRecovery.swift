import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// What a release killed outright (SIGKILL, a crash, power loss: nothing ran its Ctrl-C undo) left
/// behind, judged from its stale lock, and what the next `relctl release` does about it:
///
/// - its tag was never pushed: **roll back**: delete the tag (only while it is still the object the
///   killed run created) and the files of that tag it had moved into dist/; then this release runs
///   as if the killed one never happened (for the same tag, it simply starts over);
/// - its tag was pushed and this release is of the same tag: **resume**: keep the tag (others may
///   have fetched it), check that it lists exactly the archives this run builds, skip the push,
///   finish the rest;
/// - its tag was pushed and this release is of another tag: **refuse**, saying how to finish or
///   remove the killed release first (a published tag is never deleted behind the user's back);
/// - it had finished (dist/ complete): nothing to undo; only its after hooks and publish may not have run.
///
/// A tag the killed run did not create, and any remote tag that is not its object, is never touched.
struct ReleaseRecovery: Sendable {
    enum Decision: String, Sendable {
        case nothingToUndo = "nothing-to-undo"
        case rollBack = "rolled-back"
        case resume = "resumed"
        case finished
        case refuse = "refused"
    }

    /// The killed release's lock record.
    var dead: ReleaseLock.Holder
    var decision: Decision
    /// The killed release's tag object, when it created its tag and the tag is still that object.
    var tagObject: String?
    /// The remote the killed release pushed its tag to.
    var pushedTo: String?
    /// What was (or, on a dry run, will be) done, for a warning; for `refuse` the problem.
    var summary: String
    /// The lock this (real) run took over from the killed one; the workspace keeps it.
    var lock: ReleaseLock?

    /// True when this release (of `tag`) goes on with a tag the killed run created and pushed.
    func resumes(_ tag: String) -> Bool { decision == .resume && dead.tag == tag }

    /// True when the killed run's tag `tag` is (or on a dry run, will be) deleted before this release.
    func rollsBack(_ tag: String) -> Bool { decision == .rollBack && dead.tag == tag }

    /// Looks for a killed release's lock; when there is one, judges it and (unless `dryRun`) takes
    /// the lock over and acts. Returns nil when there is nothing to recover.
    static func run(_ options: ReleaseOptions, config: RelctlConfig, context: Context) async -> ReleaseRecovery? {
        // Found without starting git: most releases find no lock and cost nothing here.
        guard let lockURL = ReleaseLock.url(near: config.root, name: ReleaseLock.fileName(for: config)),
            let dead = ReleaseLock.currentHolder(at: lockURL),
            dead.pid != 0, dead.isStale
        else { return nil }
        let git = Git(directory: config.root, context: context)
        var recovery = await judge(dead, tag: options.tag, lock: lockURL, config: config, git: git, context: context)
        guard !options.dryRun else {
            if recovery.decision != .refuse {
                context.console.warning(recovery.summary + " (dry run: nothing done; the real run will do this)")
            }
            return recovery
        }
        let lock: ReleaseLock
        do {
            var taken: ReleaseLock.Holder?
            lock = try ReleaseLock.acquire(
                at: lockURL, tag: options.tag, clock: context.clock, onStale: { taken = $0 })
            // Another release recovered it between our reading and taking it: that one did the work.
            guard taken?.isSameHolder(as: dead) == true else {
                lock.release()
                return nil
            }
        } catch {
            return nil
        }
        switch recovery.decision {
        case .refuse:
            lock.handBack(dead)
            return recovery
        case .rollBack:
            recovery.summary = await rollBack(recovery, tag: options.tag, config: config, git: git)
        case .resume:
            // A resumed release killed, interrupted or failing in turn is resumed again by the next run.
            lock.keepOnInterrupt()
            lock.record {
                $0.commit = dead.commit
                $0.tagging = true
                $0.tagObject = recovery.tagObject
                $0.pushing = recovery.pushedTo
                $0.pushed = true
            }
        case .nothingToUndo, .finished:
            break
        }
        recovery.lock = lock
        context.console.warning(recovery.summary)
        return recovery
    }

    /// Decides what to do, reading only (it waits for the killed run's `git tag`/`git push` to end).
    static func judge(
        _ dead: ReleaseLock.Holder, tag: String, lock: URL, config: RelctlConfig, git: Git, context: Context
    ) async -> ReleaseRecovery {
        let who = "the release of \(dead.tag) killed at pid \(dead.pid) (started \(dead.started))"
        var recovery = ReleaseRecovery(
            dead: dead, decision: .nothingToUndo,
            summary:
                "took over a stale release lock left by \(dead.summary): that process is gone; it had created no tag")
        if let running = await waitForChildren(of: dead, in: config.root, context: context) {
            recovery.decision = .refuse
            recovery.summary =
                "\(who) left `git` (process group \(running)) running, still at work after 120 s; wait for it to end (or stop it with `kill -- -\(running)`), then run again"
            return recovery
        }
        if dead.sealed == true {
            recovery.decision = .finished
            let pushed = dead.pushed == true ? " and pushed to \(dead.pushing ?? "the remote")" : ""
            recovery.summary =
                "\(who) had finished: \(dead.tag) tagged\(pushed), dist/ complete; only its `[release] after` hooks and publish may not have run, so run those by hand"
            return recovery
        }
        guard let object = await ownTagObject(dead, config: config, git: git) else { return recovery }
        recovery.tagObject = object
        let commit = (dead.commit ?? "").prefix(12)
        // Asked even when the killed run never got to its push: the tag may have been pushed by
        // hand (or by `relctl train`) since, and a published tag is never rolled back.
        let remote = dead.pushing ?? config.release.remote
        var hasRemote = dead.pushing != nil
        if !hasRemote { hasRemote = (try? await git.runUnchecked(["remote", "get-url", remote]))?.succeeded == true }
        if hasRemote {
            let onRemote: TagRef?
            do { onRemote = try await git.remoteTag(dead.tag, remote: remote) } catch {
                recovery.decision = .refuse
                recovery.summary =
                    "\(who) had created \(dead.tag); `\(remote)` cannot be reached now to see whether that tag was pushed, which decides whether it may be deleted; run again once it can"
                return recovery
            }
            if onRemote?.object == object {
                recovery.pushedTo = remote
                if dead.tag == tag {
                    recovery.decision = .resume
                    recovery.summary =
                        "resuming \(who): its tag \(dead.tag) (on \(commit)) was already pushed to `\(remote)`, so it is kept and this run does the rest"
                } else {
                    recovery.decision = .refuse
                    recovery.summary =
                        "\(who) pushed \(dead.tag) to `\(remote)` but did not finish dist/; finish it first with `relctl release \(dead.tag) --push` on commit \(commit), or, if nobody uses that tag, delete it on both sides (`git push \(remote) :refs/tags/\(dead.tag) && git tag -d \(dead.tag)`), then delete \(lock.path)"
                }
                return recovery
            }
        }
        recovery.decision = .rollBack
        let again = dead.tag == tag ? "; releasing \(tag) from the start" : ""
        recovery.summary =
            "rolling back \(who): its tag \(dead.tag) (on \(commit)) was never pushed, so it is deleted with the files of \(dead.tag) it had moved into dist/\(again)"
        return recovery
    }

    /// The killed run's tag object, when `refs/tags/TAG` is still the tag it created: the object
    /// it recorded, or (killed between `git tag` and recording it) an annotated tag on the recorded
    /// commit whose message is the one relctl writes for that release.
    static func ownTagObject(_ dead: ReleaseLock.Holder, config: RelctlConfig, git: Git) async -> String? {
        guard dead.tagging == true, let local = await git.localTag(dead.tag) else { return nil }
        if let recorded = dead.tagObject { return recorded == local.object ? local.object : nil }
        guard let commit = dead.commit, local.commit == commit, local.object != commit,
            let body = try? await git.run(["cat-file", "tag", local.object])
        else { return nil }
        let message = body.components(separatedBy: "\n\n").dropFirst().joined(separator: "\n\n")
        let ours =
            message.hasPrefix("\(config.project.name) \(dead.tag)\n")
            && message.contains(" of \(config.project.name), commit \(commit).")
        return ours ? local.object : nil
    }

    /// Deletes the killed run's tag (only while it is still its object: `git update-ref -d REF OLD`
    /// compares and deletes in one step) and the files of that tag it had moved into dist/.
    static func rollBack(_ recovery: ReleaseRecovery, tag: String, config: RelctlConfig, git: Git) async -> String {
        let dead = recovery.dead
        var done: [String] = []
        if let object = recovery.tagObject {
            let deleted = await (try? git.runUnchecked(["update-ref", "-d", "refs/tags/\(dead.tag)", object]))?
                .succeeded
            done.append(
                deleted == true
                    ? "deleted its unpushed tag \(dead.tag)"
                    : "could not delete its tag \(dead.tag) (`git tag -d \(dead.tag)` if it is still the killed run's)")
        }
        let dist = config.distDirectory
        // The killed run recorded its tag, not its version: read back as a found tag is.
        let stems =
            TagReader(config.project.tagFormat).releaseVersion(of: dead.tag).map {
                ReleasePreflight.archiveStems(tag: dead.tag, version: $0, config: config)
            } ?? []
        var removed = 0
        for name in dead.distFiles ?? [] where stems.contains(where: { name == $0 || name.hasPrefix($0 + ".") }) {
            if (try? FileSystem.remove(dist.appendingPathComponent(name))) != nil { removed += 1 }
        }
        if let manifest = try? ReleaseManifest.read(in: dist), manifest.tag == dead.tag,
            (try? FileSystem.remove(dist.appendingPathComponent(ReleaseManifest.fileName))) != nil
        {
            removed += 1
        }
        if removed > 0 { done.append("removed \(removed) file(s) of \(dead.tag) it had moved into dist/") }
        let again = dead.tag == tag ? "; releasing \(tag) from the start" : ""
        return "rolled back the release of \(dead.tag) killed at pid \(dead.pid) (started \(dead.started)): "
            + (done.isEmpty ? "nothing of it was left" : done.joined(separator: ", ")) + again
    }

    /// Process groups of live `git push` processes whose refspec is `tag`'s, run in `repository`
    /// (Linux: read from /proc). Another project pushing a tag of the same name on this machine
    /// (a second release, another test, another CI job on the runner) is none of ours.
    static func orphanedPushes(of tag: String, in repository: URL) -> [Int32] {
        #if os(Linux)
        let refspec = "refs/tags/\(tag):refs/tags/\(tag)"
        // Identity only: the repository and each process's working folder are compared as the
        // kernel resolves them (/proc's cwd already is); nothing is read or written through them.
        let here = AbsolutePath(repository.resolvingSymlinksInPath())
        guard let entries = try? FileSystem.names(atPath: "/proc") else { return [] }
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry), pid != getpid(),
                let raw = FileSystem.contents(atPath: "/proc/\(entry)/cmdline")
            else { return nil }
            let arguments = raw.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            guard arguments.contains("push"), arguments.contains(refspec) else { return nil }
            // relctl starts git as `git -C REPOSITORY push …`; git itself then works in it.
            var named: String?
            if let flag = arguments.firstIndex(of: "-C"), flag + 1 < arguments.count { named = arguments[flag + 1] }
            let cwd = try? FileSystem.symlinkDestination(atPath: "/proc/\(entry)/cwd")
            let candidates: [String?] = [named, cwd]
            let places = candidates.compactMap { $0 }.map {
                AbsolutePath(AbsolutePath($0, relativeTo: .root).url.resolvingSymlinksInPath())
            }
            guard places.contains(here) else { return nil }
            let group = getpgid(pid)
            return group > 0 ? group : nil
        }
        #else
        return []
        #endif
    }

    /// Waits (up to two minutes) for the children the killed run recorded; returns a group still alive.
    static func waitForChildren(of dead: ReleaseLock.Holder, in repository: URL, context: Context) async -> Int32? {
        // A SIGKILL between starting `git push` and recording its pid leaves a push nobody
        // recorded: found by its command line (the refspec names the tag), it is waited for too.
        let unrecorded = dead.pushing != nil && dead.pushed == nil ? orphanedPushes(of: dead.tag, in: repository) : []
        // A group id stays taken while any of its processes lives, so a group of that id led by
        // a process that started later is another program's, not a child left running.
        let groups = ((dead.children ?? []) + unrecorded).filter { group in
            ChildProcesses.isGroupAlive(group) && !ProcessStart.isReused(group, recorded: dead.childStarts?[String(group)])
        }
        guard let first = groups.first else { return nil }
        context.console.warning(
            "waiting for `git` (process group \(first)) that the release of \(dead.tag) killed at pid \(dead.pid) left running"
        )
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, groups.contains(where: ChildProcesses.isGroupAlive) {
            try? await Task.sleep(for: .milliseconds(50))
        }
        return groups.first(where: ChildProcesses.isGroupAlive)
    }
}
