import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlDistribution
import RelctlModel

public enum ProjectChecker {
    /// Loads the config (a config that cannot be read is thrown, exit 2) and checks the rest.
    public static func check(configPath: String?, context: Context) async throws -> CheckReport {
        let config = try ConfigLoader.load(path: configPath, context: context)
        return await check(config, context: context)
    }

    /// The companions of a manifest that do not follow the version it holds now.
    package static func staleCompanions(
        of source: VersionSource, found: ManifestVersion, comparison: VersionComparison, root: URL
    ) -> [StaleCompanion] {
        guard let companions = try? CompanionFinder.companions(of: source, found: found, root: root) else { return [] }
        return companions.compactMap { companion in
            switch comparison {
            case .semver:
                guard let version = try? SemanticVersion(parsing: found.text.trimmingCharacters(in: .whitespaces)),
                    let expected = companion.expectedText(for: version)
                else { return nil }
                return StaleCompanion(companion: companion, manifest: source.path, expected: expected)
            case .pep440:
                guard let declared = PEP440Version(found.text), PEP440Version(companion.text) != declared else {
                    return nil
                }
                return StaleCompanion(companion: companion, manifest: source.path, expected: declared.description)
            }
        }
    }

    package static func check(_ config: RelctlConfig, context: Context) async -> CheckReport {
        var report = CheckReport()
        let seen = checkManifests(config, into: &report)
        if config.workspace != nil {
            // The members as `plan` and `bump` read them (ProjectModel): the repository's top, not
            // the workspace root, bounds their files (issue 54).
            let members: Result<[WorkspaceMember], any Error>
            do {
                members = .success(
                    try await ProjectModel.read(config, git: Git(directory: config.root, context: context), tolerant: true)
                        .members)
            } catch {
                members = .failure(error)
            }
            checkMembers(config, members: members, into: &report)
        }
        checkChannels(config, context: context, into: report)
        checkTargets(config, into: &report)
        checkArchivePaths(config, into: report)
        await checkLayouts(
            config, context: context, version: seen.lazy.compactMap { try? SemanticVersion(parsing: $0.version) }.first,
            into: &report)
        // Each pipeline `ci generate` writes ([ci] providers): what it cannot do as configured.
        for problem in WorkflowWriter.problems(config.ci.providers, config: config) {
            if problem.severity == .error { report.problem(problem) } else { report.warning(problem) }
        }
        await checkBinaryDirectories(config, context: context, into: &report)
        for problem in LinuxPackageBuilder.problems(config: config, version: seen.first?.version) {
            report.problem(problem)
        }
        // `[npm]`: a target npm can name, no two named alike, a version npm accepts.
        if let npm = config.npm, let targets = try? TargetResolver.resolveAll(config), !targets.isEmpty {
            do { _ = try NpmPackageBuilder.platforms(settings: npm, targets: targets, config: config.path) } catch let
                error as RelctlError
            {
                error.diagnostics.forEach { report.problem($0) }
            } catch {}
        }
        // `[windows] msi = true`: wixl and msibuild (and osslsigncode with a key) on PATH, names an
        // MSI can hold, a version that is an MSI ProductVersion.
        for problem in MSIBuilder.problems(
            config: config, version: seen.first?.version, environment: context.environment)
        {
            report.problem(problem)
        }
        for problem in PythonWheelBuilder.problems(config: config, version: seen.first?.version) {
            report.problem(problem)
        }
        if let template = config.notes.template, !FileSystem.exists(atPath: config.resolve(template).path) {
            report.problem(Diagnostic(file: config.path, "notes template `\(template)` does not exist"))
        }
        checkWindowsSigning(config, context: context, into: report)
        await checkRepository(config, context: context, into: report)
        return report
    }

    /// A workspace root: each member found, its manifests read and its targets resolved as for a
    /// single project, each problem named by the member's files. A member that cannot be read
    /// (no folder, a duplicate name) is a problem of the workspace's relctl.toml.
    private static func checkMembers(
        _ config: RelctlConfig, members read: Result<[WorkspaceMember], any Error>, into report: inout CheckReport
    ) {
        let members: [WorkspaceMember]
        do {
            members = try read.get()
        } catch let error as RelctlError {
            error.diagnostics.forEach { report.problem($0) }
            report.members = []
            return
        } catch {
            report.problem(Diagnostic(file: config.path, "\(error)"))
            report.members = []
            return
        }
        report.members = members.map { member in
            var own = CheckReport()
            _ = checkManifests(member.config, into: &own)
            checkTargets(member.config, into: &own)
            // Named from the workspace root: `crates/core/Cargo.toml`, not the member's `Cargo.toml`.
            let named = { (item: Diagnostic) -> Diagnostic in
                guard let file = item.file, !file.hasPrefix("/"), member.path != "." else { return item }
                var moved = item
                moved.file = member.path + "/" + file
                return moved
            }
            for item in own.diagnostics.errors { report.problem(named(item)) }
            for item in own.diagnostics.warnings { report.warning(named(item)) }
            return CheckReport.Member(
                name: member.name, path: member.path, tagFormat: member.config.project.tagFormat.pattern,
                manifests: own.manifests, targets: own.targets,
                ownConfig: FileSystem.exists(
                    atPath: config.root.appendingPathComponent(member.path).appendingPathComponent("relctl.toml").path))
        }
    }

    /// `[windows]`: the Authenticode key opens with its password (the same reading `package`
    /// and `release` do), and some target is a Windows one.
    private static func checkWindowsSigning(_ config: RelctlConfig, context: Context, into report: CheckReport) {
        guard AuthenticodeKey.isConfigured(config.windows, environment: context.environment) else { return }
        do {
            _ = try AuthenticodeKey.load(
                settings: config.windows, config: config.path, root: config.root, environment: context.environment)
        } catch let error as RelctlError {
            error.diagnostics.forEach { report.problem($0) }
        } catch {}
        if !config.targets.contains(where: { TargetTriple($0.triple).isWindows }) {
            report.warning(
                Diagnostic(
                    file: config.path, line: config.windows.line,
                    "[windows] names a signing key but no [[target]] is a Windows one; nothing will be signed"))
        }
    }

    /// Manifests: readable, their versions valid, their companions following them, and agreeing
    /// with each other. Returns each manifest's path and the version it holds.
    private static func checkManifests(
        _ config: RelctlConfig, into report: inout CheckReport
    ) -> [(path: String, version: String)] {
        var seen: [(path: String, version: String)] = []
        for source in config.versions {
            do {
                let found = try ManifestReaders.read(source, config: config)
                let reader = try ManifestReaders.reader(for: source.kind)
                switch reader.comparison {
                case .semver:
                    if (try? SemanticVersion(parsing: found.text)) == nil,
                        config.project.tagFormat.scheme != .calver
                            || (try? VersionScheme.calendarVersion(found.text)) == nil
                    {
                        report.problem(
                            Diagnostic(
                                file: found.foundIn, line: found.line,
                                "version `\(found.text)` is not a valid SemVer 2.0.0 version"))
                    }
                case .pep440:
                    if PEP440Version(found.text) == nil {
                        report.problem(
                            Diagnostic(
                                file: found.foundIn, line: found.line,
                                "version `\(found.text)` is not a valid PEP 440 version"))
                    }
                }
                for stale in staleCompanions(of: source, found: found, comparison: reader.comparison, root: config.root)
                {
                    report.mismatch(stale.diagnostic)
                }
                seen.append((source.path, found.text))
                report.manifests += 1
            } catch let error as RelctlError {
                error.diagnostics.forEach { report.problem($0) }
            } catch {}
        }
        if Set(seen.map(\.version)).count > 1 {
            report.warning(
                Diagnostic(
                    file: config.path,
                    "manifests disagree: " + seen.map { "\($0.path) has \($0.version)" }.joined(separator: ", ")
                        + "; no tag can match them all"))
        }
        // A Swift package, a Go module or a dynamic pyproject.toml version: the tag is the version.
        // A workspace's root has none of its own: its members' versions are checked, member by
        // member (init writes no [[version]] there, and check must not warn about init's file).
        // Nor has a member that is never published (rayon's `rayon-demo`: `publish = false`, no version).
        if config.versions.isEmpty, config.workspace == nil, StarterConfig.versionOnlyInTags(root: config.root) == nil,
            !MemberDiscovery.isUnpublished(config.root)
        {
            report.warning(Diagnostic(file: config.path, "no [[version]] entries: tags are checked for syntax only"))
        }
        // A version relctl cannot locate is said out loud, never skipped (issue 54).
        if config.workspace == nil {
            let named = Set(config.versions.map { $0.path.hasPrefix("./") ? String($0.path.dropFirst(2)) : $0.path })
            for note in StarterConfig.unlocatedVersions(
                root: config.root, named: named, project: config.project.name)
            {
                report.warning(Diagnostic(file: config.path, note))
            }
        }
        return seen
    }

    /// Channels: every plugin can run, no plugin takes a built-in's name, every chart loads.
    private static func checkChannels(_ config: RelctlConfig, context: Context, into report: CheckReport) {
        for problem in ChannelRegistry.problems(config, environment: context.environment) { report.problem(problem) }
        for chart in config.channels.charts {
            do {
                // Its dependencies as far as can be told offline (the lock, vendored versions, sources).
                try HelmDependencyFetcher(context: context, root: config.root, chartPath: chart.path).checkOffline(
                    try HelmChartPackage.load(path: chart.path, root: config.root))
            } catch let error as RelctlError {
                error.diagnostics.forEach { report.problem($0) }
            } catch {}
        }
    }

    /// Targets: resolvable, listed once; unknown triples named even when they work.
    private static func checkTargets(_ config: RelctlConfig, into report: inout CheckReport) {
        for settings in config.targets {
            do {
                let target = try TargetResolver.resolve(settings)
                if !target.isRecognized {
                    report.warning(
                        Diagnostic(
                            file: config.path, line: settings.line,
                            "unknown target triple `\(settings.triple)`: using the given runner `\(target.runner)` and format `\(target.format)`"
                        ))
                }
                report.targets += 1
            } catch let error as RelctlError {
                error.diagnostics.forEach { report.problem(Diagnostic(file: config.path, line: $0.line, $0.message)) }
            } catch {}
        }
        // A triple listed twice is refused when relctl.toml is loaded (ConfigLoader.validate), for
        // every command.
        // Without [build] a tag-only release is what the file says (the ok line names it); with a
        // build command or binaries, the missing targets are a mistake.
        if config.targets.isEmpty, config.build.command != nil || !config.build.binaries.isEmpty {
            report.warning(
                Diagnostic(
                    file: config.path,
                    "no [[target]] entries, so `relctl release` is a tag-only release (versions, notes, tag, push; nothing built or packaged), and `relctl ci generate` writes one release job with no build matrix (check the tag, publish the notes); build, package and matrix need at least one target; \(TargetResolver.addTargetHint)"
                ))
        }
        if !config.targets.isEmpty, config.build.binaries.isEmpty {
            report.warning(
                Diagnostic(file: config.path, "[build] lists no `binaries`: archives will have an empty bin/"))
        }
    }

    /// Packaged paths that do not depend on the target must exist now.
    private static func checkArchivePaths(_ config: RelctlConfig, into report: CheckReport) {
        if let level = config.archive.invalidCompressionLevel {
            for diagnostic in PackagingError.compressionLevel(config: config.path, level: level).diagnostics {
                report.problem(diagnostic)
            }
        }
        for mapping in config.archive.files + config.archive.trees where mapping.from.placeholders.isEmpty {
            let path = mapping.from.text
            if !FileSystem.exists(atPath: config.root.appendingPathComponent(path).path) {
                report.problem(
                    Diagnostic(
                        file: config.path,
                        "archive path `\(path)` does not exist in the project; create it or remove it from [archive]"))
            }
        }
    }

    private static func checkRepository(_ config: RelctlConfig, context: Context, into report: CheckReport) async {
        do {
            if try await !Git(directory: config.root, context: context).isRepository() {
                report.warning(
                    Diagnostic(file: config.root.path, "not a git repository: tags, notes and release need one"))
            }
        } catch let error as RelctlError {
            error.diagnostics.forEach { report.warning($0) }
        } catch {
            report.warning(Diagnostic("\(error)"))
        }
    }

    /// Every target's archive layout, computed as `package` would before anything is built (a
    /// missing binary stands in as an empty file): two sources for one path, unsafe or dangling
    /// links and names a target's file system cannot hold are found now, not after the build.
    /// Paths the build may still create are not judged here.
    /// `version` (the manifests' version, when they hold one) names the archives as the next
    /// release would, so a name too long for that tag is found now.
    package static func checkLayouts(
        _ config: RelctlConfig, context: Context, version: SemanticVersion? = nil, into report: inout CheckReport
    ) async {
        guard let targets = try? TargetResolver.resolveAll(config), !targets.isEmpty else { return }
        let ignored = await IgnoredPaths.load(root: config.root, context: context)
        let named = version ?? SemanticVersion(major: 0, minor: 0, patch: 0)
        let placeholders = ReleaseNames(
            project: config.project.name, version: named.description, tag: config.project.tagFormat.tag(for: named)
        ).placeholders()
        var seen: Set<String> = []
        // Two targets (or formats) giving one archive name: `package` refuses them, so say it now.
        var owners: [String: String] = [:]
        for target in targets {
            for format in target.formats where format != ArtifactBundle.format {
                let name =
                    config.archiveName(for: target).render(placeholders.merging(target.placeholders) { $1 })
                    + ArchiveFormats.fileExtension(format)
                if let first = owners[name] {
                    report.problem(
                        Diagnostic(
                            file: config.path,
                            "targets \(first) and \(target.triple) both give the archive `\(name)`: `[archive] name = \"\(config.archive.name.text)\"` must tell them apart (add {target} to it, or give one of them a `name` of its own)"
                        ))
                } else {
                    owners[name] = target.triple
                }
            }
        }
        // Missing archive paths are `checkArchivePaths`'s to report.
        func add(layoutErrors: [PackagingError], target: String) {
            for error in layoutErrors {
                if case .missingSource = error { continue }
                for diagnostic in error.diagnostics where seen.insert(diagnostic.message).inserted {
                    report.problem(Diagnostic(file: config.path, "\(target): \(diagnostic.message)"))
                }
            }
        }
        for target in targets {
            do {
                _ = try ArchiveLayout.compute(
                    config: config, target: target, placeholders: placeholders, ignored: ignored, probe: true)
            } catch let error as PackagingError {
                add(layoutErrors: [error], target: target.triple)
            } catch let error as LayoutProblems {
                add(layoutErrors: error.errors, target: target.triple)
            } catch let error as RelctlError {
                for diagnostic in error.diagnostics where seen.insert(diagnostic.message).inserted {
                    report.problem(Diagnostic(file: config.path, "\(target.triple): \(diagnostic.message)"))
                }
            } catch {}
        }
    }
}
