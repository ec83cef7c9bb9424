import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlDistribution
import RelctlModel

/// `relctl release` preflight: repository, clean tree, allowed branch, tag syntax and manifest
/// versions, tag absent locally and on the remote, nothing of the tag already in dist/.
enum ReleasePreflight {
    /// Runs every check and returns them all; it never stops at the first problem.
    /// With `recovery` (a killed release's leftovers), its tag is accepted when this run resumes it
    /// (or, on a dry run, will roll it back), and a refusal is one of the problems.
    static func check(
        _ options: ReleaseOptions, config: RelctlConfig, context: Context, recovery: ReleaseRecovery? = nil
    ) async -> PreflightReport {
        var report = PreflightReport(tag: options.tag)
        if let recovery, recovery.decision == .refuse {
            report.fail(file: recovery.lock?.url.path, recovery.summary)
        }
        checkTag(options.tag, config: config, into: &report)
        checkTargets(options, config: config, into: &report)
        checkArchiveNames(options.tag, config: config, into: &report)
        checkWindowsKey(config: config, context: context, into: &report)
        do { report.sourceDateEpoch = try SourceDateEpoch.from(context.environment) } catch let error as RelctlError {
            report.fail(error.exitCode, error.diagnostics)
        } catch {}
        // `git status` otherwise refreshes .git/index, a write a dry run promises not to make.
        var readOnly = context
        readOnly.environment["GIT_OPTIONAL_LOCKS"] = "0"
        let git = Git(directory: config.root, context: readOnly)
        switch await Result(catching: { try await git.layout() }) {
        case .success(let layout?):
            report.topLevel = layout.topLevel
            report.lockFile = ReleaseLock.url(
                commonDirectory: layout.commonDirectory, name: ReleaseLock.fileName(for: config))
            await checkRepository(options, config: config, git: git, recovery: recovery, into: &report)
        case .success(nil):
            report.fail(
                file: config.root.path,
                "not inside a git repository; relctl release tags a commit, so run it in a clone (or `git init` and commit first)"
            )
        case .failure(let error as RelctlError):
            report.fail(error.exitCode, error.diagnostics)
        case .failure(let error):
            report.fail(file: nil, "\(error)")
        }
        // The killed run's own files of this tag are replaced (resume) or, after this dry run,
        // removed by the real run's roll back (which has removed them already when it gets here).
        if !options.rebuild,
            !(recovery.map { $0.resumes(options.tag) || (options.dryRun && $0.rollsBack(options.tag)) } ?? false)
        {
            checkDist(options.tag, version: report.version, config: config, into: &report)
        }
        // `[windows] msi = true` needs its tools before anything is built or tagged.
        if config.windows.msi, (report.targets ?? []).contains(where: { $0.os == "windows" }) {
            for problem in MSIBuilder.problems(
                config: config, version: report.version?.description, environment: context.environment)
            {
                report.fail(.badInput, [problem])
            }
        }
        // `[pypi]`: a version PEP 440 cannot spell, or a readme that is not there, stops the
        // release before the build, not in its wheel stage.
        if let version = report.version {
            for problem in PythonWheelBuilder.problems(config: config, version: version.description) {
                report.fail(.badInput, [problem])
            }
        }
        if let directory = options.artifactsDirectory {
            if !FileSystem.isDirectory(directory) {
                report.fail(
                    .badInput, file: directory.path,
                    "--artifacts folder not found; pass the folder holding the prebuilt binaries")
            }
        }
        if options.publish, !options.rebuild {
            await checkPublished(options.tag, config: config, context: context, into: &report)
            // `[pypi]`: the token before any build, as the forges' (exit 2, nothing uploaded).
            if config.pypi != nil {
                do { _ = try PyPIPublisher.token(environment: context.environment) } catch let error as RelctlError {
                    report.fail(error.exitCode, error.diagnostics)
                } catch {}
            }
        }
        // `[npm]` with --publish: no token is exit 2 here, before the build and any upload.
        if options.publish, let npm = config.npm {
            do { _ = try NpmPublisher.token(environment: context.environment, settings: npm) } catch let error
                as RelctlError
            {
                report.fail(error.exitCode, error.diagnostics)
            } catch {}
        }
        return report
    }

    /// `--publish`: each forge is asked (reads only) whether the tag's release is already
    /// published. A published release is never changed, so one without an asset this release
    /// would publish (its archives and SHA256SUMS, named before any build) stops the release
    /// here: exit 1 naming each, before the build, the tag or any request that writes. One holding
    /// every name is compared by SHA256 in the publish stage, which then sends nothing that writes.
    private static func checkPublished(
        _ tag: String, config: RelctlConfig, context: Context, into report: inout PreflightReport
    ) async {
        guard let version = report.version else { return }
        var request = PublishRequest(
            tag: tag, version: version, tagFormat: config.project.tagFormat, projectName: config.project.name,
            title: "", body: "", assets: ReleaseAssetSet(assets: []), configuredRepository: config.publish.github,
            remoteURL: await Git(directory: config.root, context: context).configuredRemoteURL(config.release.remote))
        request.configuredGitLabProject = config.publish.gitlab
        request.configuredGiteaRepository = config.publish.gitea
        request.extensionSettings = config.publish.extensions
        let wanted = predictedAssetNames(tag, config: config, report: report)
        do {
            let forges = try ForgeSelection(settings: config.publish, http: context.http)
            try forges.preflight(request, context: context)
            for publisher in forges.publishers {
                guard let published = try await publisher.publishedRelease(request, context: context) else { continue }
                let lacking = published.lacking(wanted)
                guard lacking.isEmpty else {
                    report.fail(
                        .failure,
                        PublishError.publishedReleaseDiffers(release: published.shown, missing: lacking, differing: [])
                            .diagnostics)
                    continue
                }
                report.warn(
                    "\(published.shown) is already published: the publish stage compares this release's files with it and changes nothing there"
                )
            }
        } catch let error as RelctlError {
            report.fail(error.exitCode, error.diagnostics)
        } catch {
            report.fail(file: config.path, "\(error)")
        }
    }

    /// The assets a release of `tag` publishes whose names are known before the build: one archive
    /// per target and `SHA256SUMS`.
    private static func predictedAssetNames(_ tag: String, config: RelctlConfig, report: PreflightReport) -> [String] {
        guard let targets = report.targets, !targets.isEmpty, let version = report.version else { return [] }
        // A target asking only for the artifact bundle has no archive of its own.
        return targets.compactMap { target in
            guard let format = target.formats.first(where: { $0 != ArtifactBundle.format }) else { return nil }
            let values = ReleaseNames(project: config.project.name, version: version.description, tag: tag)
                .placeholders(for: target)
            return config.archive.name.render(values) + ArchiveFormats.fileExtension(format)
        } + ["SHA256SUMS"]
    }

    /// `--host` or `--target` globs over the configured targets; none configured is a tag-only release
    /// (with `--host` too: the first dry run of a library succeeds).
    private static func checkTargets(
        _ options: ReleaseOptions, config: RelctlConfig, into report: inout PreflightReport
    ) {
        do {
            let all = try TargetResolver.resolveAll(config)
            if options.hostOnly, !all.isEmpty {
                guard let host = TargetResolver.host(in: all) else {
                    throw BuildError.noHostTarget(configured: all.map(\.triple), file: config.path)
                }
                report.targets = [host]
            } else if all.isEmpty, options.targets.isEmpty {
                report.targets = []
            } else {
                report.targets = try TargetResolver.select(all, globs: options.targets)
            }
        } catch let error as RelctlError {
            report.fail(error.exitCode, error.diagnostics)
        } catch {
            report.fail(file: config.path, "\(error)")
        }
    }

    /// `[windows]`: the Authenticode key of the Windows targets opens (exists, is a PKCS#12 file
    /// relctl reads, takes the password), so a wrong one stops the release before anything is written.
    private static func checkWindowsKey(config: RelctlConfig, context: Context, into report: inout PreflightReport) {
        guard let targets = report.targets, targets.contains(where: { TargetTriple($0.triple).isWindows }) else {
            return
        }
        do {
            _ = try AuthenticodeKey.load(
                settings: config.windows, config: config.path, root: config.root, environment: context.environment)
        } catch let error as RelctlError {
            report.fail(error.exitCode, error.diagnostics)
        } catch {
            report.fail(file: config.path, "\(error)")
        }
    }

    /// Every archive name this tag gives, short enough for what `package` writes beside it: found
    /// here rather than after the build.
    private static func checkArchiveNames(_ tag: String, config: RelctlConfig, into report: inout PreflightReport) {
        guard let targets = report.targets, let version = report.version else { return }
        for target in targets where target.format != ArtifactBundle.format {
            let values = ReleaseNames(project: config.project.name, version: version.description, tag: tag)
                .placeholders(for: target)
            let fileName = config.archiveName(for: target).render(values) + ArchiveFormats.fileExtension(target.format)
            do { try ArchivePath.checkArchiveFileName(fileName) } catch let error as RelctlError {
                report.fail(error.exitCode, error.diagnostics.map { Diagnostic(file: config.path, $0.message) })
                return
            } catch {}
        }
    }

    /// The tag through the identity resolver's first step, every problem reported: a well-formed
    /// tag whose name or manifests fail still has a version to plan with.
    private static func checkTag(_ tag: String, config: RelctlConfig, into report: inout PreflightReport) {
        let examined = ReleaseIdentity.examine(tag, config: config, manifests: .compared)
        report.version = examined.version
        switch examined.checked {
        case .success(let checked):
            if let mismatch = checked.validation?.mismatchError { report.fail(.failure, mismatch.diagnostics) }
        case .failure(let error as RelctlError):
            report.fail(error.exitCode, error.diagnostics)
        case .failure(let error):
            report.fail(file: config.path, "\(error)")
        }
    }

    private static func checkRepository(
        _ options: ReleaseOptions, config: RelctlConfig, git: Git, recovery: ReleaseRecovery?,
        into report: inout PreflightReport
    ) async {
        do { (report.commit, report.commitTime) = try await git.commitAndTime(of: "HEAD") } catch {
            report.fail(file: config.root.path, "the repository has no commit yet; commit the release first")
            return
        }
        let status: GitStatus
        do { status = try await git.status() } catch let error as RelctlError {
            report.fail(error.exitCode, error.diagnostics)
            return
        } catch { return }
        checkWorkingTree(status, config: config, into: report)
        report.branch = status.branch
        if options.rebuild {
            await checkRebuild(options.tag, git: git, into: &report)
            // No remote is checked, but download URLs derived from it must be the release's.
            report.gitSettings = await git.settings(matching: ReleaseWorkspace.borrowedSettings)
            report.remoteURL = report.gitSettings.last { $0.key == "remote.\(config.release.remote).url" }?.value
            return
        }
        checkBranch(config: config, into: report)
        checkUpstream(status, into: report)
        // The killed run's tag: kept when resuming (on the commit it tags), deleted first on a roll back.
        let adopted = recovery.flatMap { $0.resumes(options.tag) || $0.rollsBack(options.tag) ? $0.tagObject : nil }
        await checkLocalTag(options, adopted: adopted, git: git, recovery: recovery, into: report)
        await checkRemote(options, config: config, adopted: adopted, git: git, recovery: recovery, into: &report)
    }

    /// Uncommitted changes, except in our own output folder.
    private static func checkWorkingTree(_ status: GitStatus, config: RelctlConfig, into report: PreflightReport) {
        let distPrefix = distPathInRepository(config: config, topLevel: report.topLevel)
        // Our own output folder is not the user's uncommitted work.
        let dirty = status.dirty.filter { line in
            let path = String(line.dropFirst(3))
            return distPrefix.map { !(path == $0 || path.hasPrefix($0 + "/")) } ?? true
        }
        if !dirty.isEmpty {
            let shown = dirty.prefix(10).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")
            let more = dirty.count > 10 ? " and \(dirty.count - 10) more" : ""
            report.fail(
                file: report.topLevel?.path,
                "working tree has uncommitted changes (\(shown)\(more)); commit or stash them so the tag matches what is built"
            )
        }
    }

    /// `[release] branches`: HEAD on one of them (a detached HEAD is on none).
    private static func checkBranch(config: RelctlConfig, into report: PreflightReport) {
        let allowed = config.release.branches
        if let branch = report.branch {
            if !allowed.isEmpty, !allowed.contains(where: { Glob.matches($0, branch) }) {
                report.fail(
                    file: config.path,
                    "on branch `\(branch)`, but releases are made from \(allowed.map { "`\($0)`" }.joined(separator: ", ")) ([release] branches); check out one of those, or add this branch there"
                )
            }
        } else if !allowed.isEmpty {
            report.fail(
                file: config.path,
                "HEAD is detached; check out one of \(allowed.map { "`\($0)`" }.joined(separator: ", ")) ([release] branches) before releasing"
            )
        }
    }

    /// Ahead or behind the upstream: worth a warning, not a refusal.
    private static func checkUpstream(_ status: GitStatus, into report: PreflightReport) {
        if let upstream = status.upstream {
            if status.behind > 0 {
                report.warn(
                    "\(upstream) has \(status.behind) commit(s) HEAD lacks (as of the last fetch); `git pull` first unless you mean to release an older commit"
                )
            }
            if status.ahead > 0 {
                report.warn(
                    "HEAD has \(status.ahead) commit(s) not on \(upstream); the tag will publish them, so push the branch too"
                )
            }
        }
    }

    /// The tag must not exist yet (unless it is the killed run's own), and a resumed release must
    /// be on the commit that run tagged.
    private static func checkLocalTag(
        _ options: ReleaseOptions, adopted: String?, git: Git, recovery: ReleaseRecovery?, into report: PreflightReport
    ) async {
        if let recovery, recovery.resumes(options.tag), let commit = recovery.dead.commit, report.commit != commit {
            report.fail(
                file: report.topLevel?.path,
                "\(options.tag) was pushed by the killed release on \(commit.prefix(12)), but HEAD is \(report.commit?.prefix(12) ?? "unknown"); check out \(commit.prefix(12)) to finish that release"
            )
        }
        if let adopted, await git.localTag(options.tag)?.object == adopted {
            // Ours from the killed run.
        } else if await git.localTagExists(options.tag) {
            let target = await (try? git.commit(of: options.tag)).map { " (on \($0.prefix(12)))" } ?? ""
            report.fail(
                file: report.topLevel?.path,
                "tag \(options.tag) already exists locally\(target); releases never move a tag: bump the version, or delete it with `git tag -d \(options.tag)` if it was never published"
            )
        }
    }

    /// The remote: present when pushing, reachable, and without this tag.
    private static func checkRemote(
        _ options: ReleaseOptions, config: RelctlConfig, adopted: String?, git: Git, recovery: ReleaseRecovery?,
        into report: inout PreflightReport
    ) async {
        let remote = config.release.remote
        report.gitSettings = await git.settings(matching: ReleaseWorkspace.borrowedSettings)
        report.remoteURL = report.gitSettings.last { $0.key == "remote.\(remote).url" }?.value
        if report.remoteURL == nil {
            if options.push {
                report.fail(
                    file: config.path,
                    "--push needs the remote `\(remote)` ([release] remote), which this repository does not have; add it with `git remote add \(remote) URL`"
                )
            } else {
                report.warn("no remote `\(remote)`: could not check that \(options.tag) is absent there")
            }
        } else {
            do {
                let onRemote = try await git.remoteTag(options.tag, remote: remote)
                if let onRemote, !(recovery?.resumes(options.tag) == true && onRemote.object == adopted) {
                    report.fail(
                        file: report.topLevel?.path,
                        "tag \(options.tag) already exists on `\(remote)`; someone released it already: `git fetch --tags \(remote)` and bump the version"
                    )
                }
            } catch let error as RelctlError {
                let why = error.diagnostics.map(\.message).joined(separator: " ")
                report.fail(
                    file: config.path, "cannot reach `\(remote)` to check that \(options.tag) is absent there: \(why)")
            } catch {}
        }
    }

    /// A rebuild (`relctl reproduce`) runs in a fresh clone of the tagged commit: the tag must
    /// be there, on HEAD. Branch, remote and dist/ are the original release's business.
    private static func checkRebuild(_ tag: String, git: Git, into report: inout PreflightReport) async {
        let tagged = try? await git.commit(of: tag)
        if tagged == nil || tagged != report.commit {
            report.fail(
                file: report.topLevel?.path,
                "a rebuild of \(tag) needs the tag on HEAD, but HEAD is \(report.commit?.prefix(12) ?? "unknown") and \(tag) is \(tagged.map { String($0.prefix(12)) } ?? "absent")"
            )
        }
    }

    /// dist/ as a path relative to the repository top, to leave it out of the clean-tree check.
    /// Only compared with `git status` lines, never read or written through; a dist/ that links
    /// out of the repository gives nil, so nothing is left out of the check (the safe side).
    private static func distPathInRepository(config: RelctlConfig, topLevel: URL?) -> String? {
        guard let top = topLevel?.resolvingSymlinksInPath().path else { return nil }
        let dist = config.distDirectory.resolvingSymlinksInPath().path
        guard dist.hasPrefix(top + "/") else { return nil }
        return String(dist.dropFirst(top.count + 1))
    }

    /// An archive this release would write, or a manifest recording the tag, means it was (partly) released.
    private static func checkDist(
        _ tag: String, version: SemanticVersion?, config: RelctlConfig, into report: inout PreflightReport
    ) {
        let dist = config.distDirectory
        guard let names = try? FileSystem.names(in: dist) else { return }
        let stems = version.map { archiveStems(tag: tag, version: $0, config: config) } ?? []
        let clashes = names.filter { name in stems.contains { name == $0 || name.hasPrefix($0 + ".") } }.sorted()
        let shown =
            clashes.prefix(5).joined(separator: ", ") + (clashes.count > 5 ? " and \(clashes.count - 5) more" : "")
        if !clashes.isEmpty, !archiveNamesDependOnRelease(config) {
            // Version-less names (`{project}_{target}`): every release writes the same file names, so
            // these are another release's archives, checksums and SBOMs. relctl never replaces them.
            let owner = (try? ReleaseManifest.read(in: dist)).map { "of \($0.tag), " } ?? ""
            report.fail(
                file: dist.path,
                "holds \(shown), \(owner)at the names \(tag) would write: `[archive] name = \"\(config.archive.name.text)\"` has no {version} or {tag}, so every release writes the same names and relctl never replaces another release's files; move them away (`mv dist dist-old`) or delete them (`rm -r dist`), then release again"
            )
        } else if !clashes.isEmpty {
            report.fail(
                file: dist.path,
                "already holds files of \(tag) (\(shown)); move or delete them (a re-run must not mix two builds)")
        } else if let manifest = try? ReleaseManifest.read(in: dist), manifest.tag == tag {
            report.fail(
                file: dist.appendingPathComponent(ReleaseManifest.fileName).path,
                "already describes \(tag); delete dist/ (or move it) before releasing again")
        } else if names.contains(where: { !$0.hasPrefix(".") }) {
            report.warn(
                "dist/ holds files of other releases; they stay, while SHA256SUMS, manifest.json and RELEASE_NOTES.md will describe \(tag) only"
            )
        }
    }

    /// The archive names (`[archive] name`, before the extension) this tag's release writes for every
    /// configured target. Matching whole names, not "contains the tag", keeps `demo-v1.0.0-rc.1-…`
    /// from blocking v1.0.0 and `v1.0.10` files from blocking v1.0.1. Empty when they cannot be
    /// worked out (a bad target is reported by its own check).
    static func archiveStems(tag: String, version: SemanticVersion, config: RelctlConfig) -> [String] {
        stems(config: config, tag: tag, version: version.description)
    }

    /// false for version-less names (eza's `{project}_{target}`): then every release writes the
    /// same file names, and a file at one of them in dist/ is another release's.
    static func archiveNamesDependOnRelease(_ config: RelctlConfig) -> Bool {
        guard let first = try? SemanticVersion(parsing: "0.0.0-relctl.probe"),
            let second = try? SemanticVersion(parsing: "1.0.0-relctl.probe")
        else { return true }
        return stems(config: config, tag: config.project.tagFormat.tag(for: first), version: first.description)
            != stems(config: config, tag: config.project.tagFormat.tag(for: second), version: second.description)
    }

    private static func stems(config: RelctlConfig, tag: String, version: String) -> [String] {
        guard let targets = try? TargetResolver.resolveAll(config) else { return [] }
        return targets.map { target in
            config.archiveName(for: target).render(
                ReleaseNames(project: config.project.name, version: version, tag: tag).placeholders(for: target))
        }
    }
}
