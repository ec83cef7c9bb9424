import Foundation

/// `relctl train run`: releases several repositories in dependency order by running relctl
/// itself (`release TAG`) in each. Before a repository is tagged its `[[repo.pin]]` values are
/// set and committed, so the tag goes on the commit that holds them; the branch and the tag are
/// then pushed together. Every repository is checked (pins, then the child's preflight) before
/// anything is tagged; when one fails, what this run pushed is taken back, newest first.
public struct TrainRunner: Sendable {
    /// The relctl binary to run in each repository (normally this very process's executable).
    var executable: URL
    var context: Context

    public init(executable: URL, context: Context) {
        self.executable = executable
        self.context = context
    }

    /// The child release's `--json` document, as much of it as the train needs.
    struct ChildPlan: Decodable {
        struct Artifact: Decodable { var name: String }
        var ok: Bool
        var remote: String
        var tagPushed: Bool
        var problems: [String]
        var stages: [StageRecord]
        var commit: String?
        var dist: String?
        var artifacts: [Artifact]?
        /// The names the dist stage moved (newer children report them).
        var distNames: [String]?

        enum CodingKeys: String, CodingKey {
            case ok, remote, tagPushed, problems, stages, commit, dist, artifacts, distNames = "distFiles"
        }

        /// True when the child stopped before its tag stage ran, so any tag there now is not this run's.
        var neverTagged: Bool {
            guard let tag = stages.first(where: { $0.name == TagStage().name }) else { return false }
            return tag.status == .notRun || tag.status == .skipped
        }

        /// The files the child's dist stage moved into dist/: the archives, their `.sha256`, and
        /// the release-wide files (SHA256SUMS, manifest.json, RELEASE_NOTES.md) that exist.
        /// `repository` is the folder the child ran in, which a relative `dist` would be relative to.
        func distFiles(in repository: URL) -> [URL] {
            guard let dist, stages.contains(where: { $0.name == DistStage().name && $0.status == .ok }) else {
                return []
            }
            let folder = AbsolutePath(dist, relativeTo: AbsolutePath(repository)).url
            if let distNames, !distNames.isEmpty {
                return distNames.map { folder.appendingPathComponent($0) }.filter {
                    FileSystem.exists($0)
                }
            }
            let archives = (artifacts ?? []).flatMap { [$0.name, $0.name + ".sha256"] }
            let names =
                archives + [ChecksumAlgorithm.sha256.sumsFileName, ReleaseManifest.fileName, NotesStage.fileName]
            return names.map { folder.appendingPathComponent($0) }.filter {
                FileSystem.exists($0)
            }
        }
    }

    struct ChildResult {
        var status: Int32
        var plan: ChildPlan?
        var stderrTail: String
        var seconds: Double

        /// The child's exit code in contract terms: its bad input (2) stays bad input for the train.
        var exitCode: RelctlExitCode { status == RelctlExitCode.badInput.rawValue ? .badInput : .failure }

        var problems: [String] {
            if let plan, !plan.problems.isEmpty { return plan.problems }
            return stderrTail.split(separator: "\n").filter { $0.hasPrefix("relctl: error:") }.map(String.init)
                + (status != 0 && plan == nil ? ["relctl exited with status \(status)"] : [])
        }
    }

    /// Runs the train. The report is complete even when the run failed (then `TrainFailure`
    /// carries it), and its `seconds` is the whole run's.
    public func run(workspace: Workspace, options: TrainRunOptions) async throws -> TrainReport {
        let started = context.clock.now()
        var report = TrainReport(tag: options.tag, dryRun: options.dryRun)
        report.jobs = options.jobs
        func seconds() -> Double { (context.clock.seconds(since: started) * 1000).rounded() / 1000 }
        do {
            try await run(workspace: workspace, options: options, into: &report)
        } catch var failure as TrainFailure {
            failure.report.seconds = seconds()
            throw failure
        }
        report.seconds = seconds()
        return report
    }

    private func run(workspace: Workspace, options: TrainRunOptions, into report: inout TrainReport) async throws {
        let tag = options.tag
        let ordered = workspace.waves().enumerated().flatMap { index, wave in wave.map { (index + 1, $0) } }
        report.repositories = ordered.map {
            TrainRepositoryResult(name: $1.name, path: $1.path, wave: $0, status: .notRun)
        }

        // 1. What the train itself can check: pins match exactly once, a branch to push, and
        //    whether an earlier run of this train already released the repository.
        var steps: [TrainStep] = []
        var inputProblems: [Diagnostic] = []
        var checkProblems: [Diagnostic] = []
        for (index, (wave, repository)) in ordered.enumerated() {
            do {
                let step = try await prepare(
                    repository, index: index, wave: wave, workspace: workspace, options: options)
                report.repositories[index].pins = step.pins?.changes ?? []
                report.repositories[index].note = step.note
                if step.trainPushes(options), step.branch == nil, step.action != .skip {
                    checkProblems.append(
                        Diagnostic(
                            "\(repository.name): HEAD is detached; check out the branch the pin commit belongs on (the train pushes HEAD to it)"
                        ))
                }
                steps.append(step)
            } catch let error as RelctlError {
                inputProblems += error.diagnostics
                report.repositories[index].status = .failed
                report.repositories[index].problems = error.diagnostics.map(\.description)
            }
        }
        if !inputProblems.isEmpty {
            throw TrainFailure(
                report: report,
                error: TrainError(
                    exitCode: .badInput,
                    diagnostics: [Diagnostic("train \(tag): the workspace's pins are wrong; nothing was changed")]
                        + inputProblems))
        }
        for step in steps {
            for change in step.pins?.changes ?? [] {
                context.console.info(
                    "    \(step.repository.name): \(options.dryRun ? "would pin" : "will pin") \(change.rendered)")
            }
            if let note = step.note { context.console.info("    \(step.repository.name): \(note)") }
            if step.action == .skip { report.repositories[step.index].status = .alreadyReleased }
        }

        // 2. The preflight (or dry run) of every repository still to release, before anything is tagged.
        let pending = steps.filter { $0.action == .release }
        let mode = options.dryRun ? ["--dry-run", "--push"] : ["--preflight-only", "--push"]
        context.console.info(
            options.dryRun
                ? "==> dry-running \(pending.count) repositories" : "==> preflight of \(pending.count) repositories")
        let checks = await ParallelJobs.map(pending, limit: options.jobs) { step in
            (
                step,
                try? await release(tag, in: step.repository, extra: mode, echo: options.dryRun)
            )
        }
        var worstChild: RelctlExitCode?
        for (step, result) in checks {
            let index = step.index
            guard let result else {
                checkProblems.append(
                    Diagnostic("\(step.repository.name): could not run relctl in \(step.repository.directory.path)"))
                report.repositories[index].status = .failed
                continue
            }
            report.repositories[index].seconds = result.seconds
            // `--set-version` fixes the manifests before tagging; their mismatch now is expected.
            let problems = result.problems.filter { line in !step.versionMismatches.contains { line.contains($0) } }
            if result.status == 0 || problems.isEmpty {
                report.repositories[index].status = options.dryRun ? .dryRunOK : .preflightOK
                context.console.info("    \(step.repository.name): ok")
            } else {
                report.repositories[index].status = .failed
                report.repositories[index].problems = problems
                context.console.info("    \(step.repository.name): FAILED")
                checkProblems += problems.map { Diagnostic("\(step.repository.name): \(Self.strip($0))") }
                worstChild = worstChild.map { Self.moreMeaningful($0, result.exitCode) } ?? result.exitCode
            }
        }
        if !checkProblems.isEmpty {
            let what = options.dryRun ? "the dry run found problems" : "preflight failed; nothing was tagged"
            throw TrainFailure(
                report: report,
                error: TrainError(
                    exitCode: worstChild ?? .failure, diagnostics: [Diagnostic("train \(tag): \(what)")] + checkProblems
                ))
        }
        if options.dryRun {
            report.ok = true
            return
        }

        // 3. Release wave by wave, the repositories of a wave at once; on a failure, take back
        //    everything this run pushed.
        var attempts: [TrainAttempt] = []
        let guards = InterruptGuards()
        defer { guards.releaseAll() }
        let waves = Dictionary(grouping: steps.filter { $0.action != .skip }, by: \.wave).sorted { $0.key < $1.key }
        for (wave, members) in waves {
            context.console.info(
                "==> wave \(wave): releasing \(members.map(\.repository.name).joined(separator: ", "))")
            for step in members {
                // Armed before the child starts: on Ctrl-C, whatever tag this repository has by
                // then is this run's (the preflight proved it absent), even if the child was killed.
                let remote = step.remote, directory = step.repository.directory
                _ = guards.add { Self.deleteTagNow(tag, remote: remote, in: directory) }
            }
            let outcomes = await ParallelJobs.map(members, limit: options.jobs) { step in
                await releaseOne(step, options: options)
            }
            attempts += outcomes
            for outcome in outcomes { report.repositories[outcome.step.index] = outcome.result }
            let failed = outcomes.filter { $0.result.status == .failed }
            guard let first = failed.first else { continue }
            for failure in failed { context.console.error("\(failure.step.repository.name): release failed") }
            context.console.error("rolling back what this train pushed")
            await rollBack(tag, attempts.reversed(), into: &report)
            var lines = [
                Diagnostic(
                    "train \(tag) stopped at \(failed.map(\.step.repository.name).joined(separator: ", ")) (wave \(wave))"
                )
            ]
            lines += failed.flatMap(\.failure)
            lines += report.notRolledBack.map { Diagnostic("NOT rolled back: \($0)") }
            throw TrainFailure(
                report: report,
                error: TrainError(
                    exitCode: failed.map(\.exitCode).reduce(first.exitCode, Self.moreMeaningful), diagnostics: lines))
        }
        report.ok = true
    }

    /// 1 (a check failed: the thing checked is wrong) is more telling than 2 (bad input) when
    /// several repositories fail differently: the user learns a real check failed, and every
    /// bad input line is still printed. Exit 2 only when every failure is bad input.
    static func moreMeaningful(_ lhs: RelctlExitCode, _ rhs: RelctlExitCode) -> RelctlExitCode {
        lhs == .failure || rhs == .failure ? .failure : max(lhs, rhs)
    }

    /// Reads what the train needs from one repository before changing anything.
    func prepare(
        _ repository: Workspace.Repository, index: Int, wave: Int, workspace: Workspace, options: TrainRunOptions
    ) async throws -> TrainStep {
        var local = context
        local.workingDirectory = repository.directory
        let config = try? ConfigLoader.load(path: nil, context: local)
        let tag = options.tag
        let version = (try? config?.project.tagFormat.version(of: tag))?.description ?? Self.plainVersion(of: tag)
        let git = Git(directory: repository.directory, context: context)
        var step = await TrainStep(
            index: index, wave: wave, repository: repository, remote: config?.release.remote ?? "origin",
            branch: try? git.currentBranch(), version: version)
        if !repository.pins.isEmpty {
            step.pins = try PinPlan.make(for: repository, tag: tag, version: version, workspaceFile: workspace.path)
        }
        if options.setVersion, let config, let validation = try? TagValidator.validate(tag: tag, config: config) {
            step.versionMismatches = validation.mismatchError?.diagnostics.map(\.message) ?? []
        }
        // Resume: after the pins, the commit to tag is HEAD when they are all in place already.
        let pinsInPlace = (step.pins?.satisfied ?? true) && step.versionMismatches.isEmpty
        guard pinsInPlace, let head = try? await git.commit(of: "HEAD") else { return step }
        let remoteTag = try? await git.remoteTag(tag, remote: step.remote)
        if let remoteTag, remoteTag.commit == head {
            step.action = .skip
            step.note =
                "\(tag) is already on \(step.remote) at HEAD \(head.prefix(12)), the commit this run would tag; skipped"
        } else if remoteTag == nil, let localTag = await git.localTag(tag), localTag.commit == head {
            step.action = .pushOnly
            step.note =
                "\(tag) is already tagged locally at HEAD \(head.prefix(12)) (an interrupted run?); the train pushes it"
        }
        return step
    }

    /// `v1.2.0` → `1.2.0`, for a repository whose config cannot say.
    static func plainVersion(of tag: String) -> String {
        if tag.hasPrefix("v"), tag.dropFirst().first?.isNumber == true { return String(tag.dropFirst()) }
        return tag
    }

    /// Pins, release and push of one repository; never throws: the outcome says what happened.
    func releaseOne(_ step: TrainStep, options: TrainRunOptions) async -> TrainAttempt {
        let tag = options.tag
        let name = step.repository.name
        let git = Git(directory: step.repository.directory, context: context)
        var attempt = TrainAttempt(
            step: step,
            result: TrainRepositoryResult(name: name, path: step.repository.path, wave: step.wave, status: .failed))
        attempt.result.pins = step.pins?.changes ?? []
        attempt.result.note = step.note
        func fail(_ lines: [String], _ code: RelctlExitCode = .failure) -> TrainAttempt {
            attempt.result.status = .failed
            attempt.result.problems = lines
            attempt.failure = lines.map { Diagnostic("\(name): \(Self.strip($0))") }
            attempt.exitCode = code
            return attempt
        }

        if step.action == .release {
            // Lockstep versions, then the pins, in one commit.
            do {
                var paths: [String] = []
                var pinPlan: PinPlan?
                if options.setVersion {
                    let bump = try await context.processes.run(
                        Command(
                            executable.path, ["bump", "--set", step.version, "--write"],
                            directory: step.repository.directory, environment: context.environment))
                    guard bump.succeeded else {
                        return fail(["`relctl bump --set \(step.version) --write` failed: \(PushStage.tail(bump))"])
                    }
                    paths += try await git.changedPaths()
                }
                if step.pins != nil {
                    // Read afresh: the files are the same unless someone edited them meanwhile.
                    let plan = try PinPlan.make(
                        for: step.repository, tag: tag, version: step.version, workspaceFile: step.repository.path)
                    try plan.write(in: step.repository.directory)
                    attempt.result.pins = plan.changes
                    paths += plan.changedPaths
                    pinPlan = plan
                }
                paths = Array(Set(paths)).sorted()
                if !paths.isEmpty {
                    let message =
                        pinPlan.map {
                            $0.satisfied
                                ? "chore(release): set version \(step.version) for \(tag)\n"
                                : $0.commitMessage(tag: tag)
                        }
                        ?? "chore(release): set version \(step.version) for \(tag)\n"
                    let pinCommit = try await git.commitPaths(paths, message: message)
                    attempt.pinCommit = pinCommit
                    attempt.result.pinCommit = pinCommit
                    context.console.info(
                        "    [\(name)] committed \(paths.joined(separator: ", ")) as \(pinCommit.prefix(12)) (chore(release): pin … to \(tag))"
                    )
                }
            } catch let error as RelctlError {
                return fail(error.diagnostics.map(\.description), error.exitCode)
            } catch {
                return fail(["could not set the pins: \(error)"])
            }

            let trainPushes = step.trainPushes(options)
            let result: ChildResult
            do {
                // `--in-train`: the child's failure messages say the train takes the release back.
                result = try await release(
                    tag, in: step.repository, extra: (trainPushes ? [] : ["--push"]) + ["--in-train"], echo: true)
            } catch {
                return fail(["could not run relctl: \(error)"])
            }
            attempt.result.seconds = result.seconds
            attempt.result.commit = result.plan?.commit
            if result.status == 0 || result.plan?.neverTagged != true {
                attempt.createdTag = await git.localTag(tag)
            }
            attempt.distFiles = result.plan?.distFiles(in: step.repository.directory) ?? []
            if !trainPushes, result.plan?.tagPushed == true { attempt.result.push = "release" }
            guard result.status == 0 else { return fail(result.problems, result.exitCode) }
            if !trainPushes {
                attempt.result.status = .released
                return attempt
            }
        } else {
            attempt.createdTag = await git.localTag(tag)
            attempt.result.commit = attempt.createdTag?.commit
        }

        // The train's push: the branch with the pin commit and the tag on it, together.
        guard let branch = step.branch else { return fail(["HEAD is detached; nothing pushed"]) }
        do {
            let (result, atomic) = try await git.pushBranchAndTag(branch: branch, tag: tag, remote: step.remote)
            if !atomic {
                context.console.warning(
                    "\(name): \(step.remote) does not support `git push --atomic`; pushed \(branch) then \(tag) one after the other"
                )
            }
            // Whatever reached the remote must be known to the rollback, even on a failure.
            if let remoteTag = try? await git.remoteTag(tag, remote: step.remote),
                remoteTag.object == attempt.createdTag?.object
            {
                attempt.result.push = atomic ? "atomic" : "separate"
            }
            if let pin = attempt.pinCommit,
                await (try? git.runUnchecked(["ls-remote", "--exit-code", step.remote, "refs/heads/\(branch)"]))?
                    .stdoutText
                    .hasPrefix(pin) == true
            {
                attempt.pinPushed = true
            }
            guard result.succeeded else {
                return fail([
                    "\(step.remote) refused the push of \(branch) and \(tag): \(PushStage.tail(result)); pull, then run the train again"
                ])
            }
            attempt.pinPushed = attempt.pinCommit != nil
            context.console.info(
                "    [\(name)] pushed \(branch) and \(tag) to \(step.remote)\(atomic ? " (atomic)" : "")")
        } catch {
            return fail(["could not push \(branch) and \(tag): \(error)"])
        }
        attempt.result.status = .released
        return attempt
    }

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
                        let why = result.map { PushStage.tail($0) } ?? "git could not run"
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
            let why = push.map { PushStage.tail($0) } ?? "git could not run"
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

    /// Runs `relctl release TAG ARGS --json` in the repository, echoing its progress prefixed
    /// with the repository's name.
    func release(
        _ tag: String, in repository: Workspace.Repository, extra: [String], echo: Bool
    ) async throws -> ChildResult {
        let start = context.clock.now()
        let stdout = StageOutput(limit: 100_000)
        let stderr = StageOutput(limit: 60)
        let console = context.console
        let name = repository.name
        var environment = context.environment
        environment["NO_COLOR"] = "1"
        let command = Command(
            executable.path, ["release", tag, "--json"] + extra, directory: repository.directory,
            environment: environment)
        let status = try await context.processes.stream(command) { stream, line in
            switch stream {
            case .stdout: stdout.append(line)
            case .stderr:
                stderr.append(line)
                // Workflow commands (`::group::`, `::error::`) only work at the start of a line.
                if echo { console.info(line.hasPrefix("::") ? line : "    [\(name)] \(line)") }
            }
        }
        let plan = try? JSONDecoder().decode(ChildPlan.self, from: Data(stdout.text.utf8))
        return ChildResult(
            status: status, plan: plan, stderrTail: stderr.text,
            seconds: (context.clock.seconds(since: start) * 1000).rounded() / 1000)
    }

    /// `relctl: error: MSG` → `MSG`.
    static func strip(_ line: String) -> String {
        line.hasPrefix("relctl: error: ") ? String(line.dropFirst("relctl: error: ".count)) : line
    }
}
