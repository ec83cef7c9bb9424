import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlDistribution
import RelctlModel

/// Reads `relctl.toml` and checks it whole: every problem is collected, then reported together.
public enum ConfigLoader {
    public static let defaultFileName = RelctlConfig.fileName

    /// Loads the config at `path` (default `./relctl.toml`). A missing file is exit 2 suggesting `relctl init`.
    public static func load(path: String?, context: Context) throws -> RelctlConfig {
        let shown = path ?? defaultFileName
        let url = context.resolve(shown)
        guard FileSystem.exists(url) else {
            throw ConfigError.notFound(path: shown)
        }
        return try WorkProfile.shared.measure(.configuration) {
            let document = try TOMLDocument(file: ProjectFile.open(location: url, shown: shown))
            let config = try parse(document, root: url.deletingLastPathComponent())
            // A workspace member's own file, read from its folder, is the member the root reads.
            return try WorkspaceMembers.enclosing(of: config) ?? config
        }
    }

    /// Loads the config if it exists, else the defaults (for commands that work without one).
    public static func loadIfPresent(path: String?, context: Context) throws -> RelctlConfig {
        if path == nil, !FileSystem.exists(atPath: context.resolve(defaultFileName).path) {
            return .defaults(root: context.workingDirectory)
        }
        return try load(path: path, context: context)
    }

    /// Parses a document already read; throws a `ProblemList` (exit 2) holding every problem.
    package static func parse(_ document: TOMLDocument, root: URL) throws -> RelctlConfig {
        let problems = DiagnosticsEngine()
        let top = TableReader(document: document, problems: problems)
        var config = RelctlConfig.defaults(root: root)
        config.path = document.path
        config.isFromFile = true

        readProject(top.table("project"), into: &config)
        config.versions = top.tables("version").compactMap(readVersion)
        // A Python manifest's versions are PEP 440: so may its tags be (`v2.14.0b1`).
        config.project.tagFormat.readsPEP440 = ManifestReaders.readsPEP440Tags(config.versions, root: root)
        if let build = top.table("build") { config.build = readBuild(build) }
        config.targets = top.tables("target").compactMap(readTarget)
        if let archive = top.table("archive") { config.archive = readArchive(archive) }
        if let checksum = top.table("checksum") { config.checksum = readChecksum(checksum) }
        if let notes = top.table("notes") { config.notes = readNotes(notes) }
        if let release = top.table("release") { config.release = readRelease(release) }
        config.branches = top.tables("branch").compactMap(readBranch)
        if let versioning = top.table("versioning") { config.versioning = readVersioning(versioning) }
        if let workspace = top.table("workspace") { config.workspace = readWorkspace(workspace) }
        if let ci = top.table("ci") { config.ci = readCI(ci) }
        if let publish = top.table("publish") { config.publish = readPublish(publish) }
        config.images = readImages(top.tables("image"), config: config)
        if let sign = top.table("sign") { config.sign = readSign(sign) }
        if let windows = top.table("windows") { config.windows = readWindows(windows) }
        if let sbom = top.table("sbom") {
            if let enabled = sbom.bool("enabled") { config.sbom.enabled = enabled }
            sbom.finish()
        }
        if let installer = top.table("installer") {
            if let enabled = installer.bool("enabled") { config.installer.enabled = enabled }
            installer.finish()
        }
        if let provenance = top.table("provenance") {
            if let enabled = provenance.bool("enabled") { config.provenance.enabled = enabled }
            provenance.finish()
        }
        config.linuxPackages = readLinuxPackages(top.tables("package"), config: config)
        readChannels(top, into: &config)
        readRepositories(top, into: &config)
        if let npm = top.table("npm") { config.npm = readNpm(npm) }
        config.pypi = readPyPI(top.table("pypi"))
        top.finish()
        validate(config, problems: problems)

        try problems.throwIfErrors()
        return config
    }

    /// The rules between keys and tables that every command needs (`check`, `build`, `package`,
    /// `release`… all load through here): one validation, so what `check` refuses no other
    /// command accepts.
    private static func validate(_ config: RelctlConfig, problems: DiagnosticsEngine) {
        var listed: Set<String> = []
        for settings in config.targets where !listed.insert(settings.triple).inserted {
            problems.error(
                .badInput, file: config.path, line: settings.line,
                "target `\(settings.triple)` is listed more than once; remove this [[target]] entry or merge it with the first (several archive formats of one target: `format = [\"tar.gz\", \"zip\"]`)"
            )
        }
        // `universal-apple-darwin` joins the binaries of the two macOS targets: both must be there.
        for settings in config.targets where TargetTriple(settings.triple).isUniversal {
            let missing = TargetTriple.universalSlices.filter { !listed.contains($0) }
            if !missing.isEmpty {
                problems.error(
                    .badInput, file: config.path, line: settings.line,
                    "target `\(settings.triple)` joins the binaries of \(TargetTriple.universalSlices.joined(separator: " and ")) into one; add [[target]] \(missing.map { "triple = \"\($0)\"" }.joined(separator: " and "))"
                )
            }
        }
        // `members` picks among a workspace's members: without [workspace] there is none to pick.
        for rule in config.branches where rule.members != nil && config.workspace == nil {
            problems.error(
                .badInput, file: config.path, line: rule.configLine,
                "[[branch]] `\(rule.name)` has `members`, but this relctl.toml has no [workspace]: remove `members` (a member's own rule serves only it)"
            )
        }
    }

    // MARK: sections

    private static func readProject(_ table: TableReader?, into config: inout RelctlConfig) {
        guard let table else { return }
        if let name = table.string("name") {
            if name.isEmpty || name.contains("/") {
                table.report("name", "`project.name` must be a non-empty name without `/`")
            } else if let problem = WorkflowValue.problem(in: name) {
                table.report("name", "`project.name` \(QuotedString.basic(name)) \(problem)")
            } else if name.utf8.count > ProjectSettings.maximumNameLength {
                table.report(
                    "name",
                    "`project.name` is \(name.utf8.count) bytes (`\(name.prefix(40))…`); relctl names files after it (archives, `NAME-installer.sh`) and a file name holds at most 255 bytes: keep it within \(ProjectSettings.maximumNameLength)"
                )
            }
            config.project.name = name
        }
        var scheme = VersionScheme.semver
        if let text = table.string("version-scheme") {
            if let known = VersionScheme(rawValue: text) {
                scheme = known
            } else {
                table.report(
                    "version-scheme",
                    "unknown version-scheme `\(text)`; use \(VersionScheme.allCases.map { "`\($0.rawValue)`" }.joined(separator: " or "))"
                )
            }
        }
        if let format = table.string("tag-format"), let problem = WorkflowValue.problem(in: format) {
            table.report("tag-format", "`tag-format` \(QuotedString.basic(format)) \(problem)")
        } else if let format = table.string("tag-format") {
            do {
                config.project.tagFormat = try TagFormat(format, project: config.project.name, scheme: scheme)
            } catch let error as RelctlError {
                table.report("tag-format", error.message)
            } catch {}
        } else {
            config.project.tagFormat.scheme = scheme
        }
        config.project.metadata = readMetadata(table)
        if let include = table.strings("include") { config.project.include = include }
        if let exclude = table.strings("exclude") { config.project.exclude = exclude }
        table.finish()
    }

    private static func readVersion(_ table: TableReader) -> VersionSource? {
        defer { table.finish() }
        guard let path = table.string("path") else {
            // A `path` of the wrong type has been reported already.
            if table.values["path"] == nil {
                table.report(nil, "every [[version]] needs `path`, the manifest file holding the version")
            }
            return nil
        }
        let pattern = table.string("pattern")
        let kind = table.string("kind") ?? ManifestReaders.kind(forFileName: path)
        guard let kind else {
            table.report(
                "path",
                "cannot tell the manifest kind of `\(path)` from its name; add `kind = \"...\"` (known kinds: \(ManifestReaders.knownKinds.joined(separator: ", ")))"
            )
            return nil
        }
        guard ManifestReaders.knownKinds.contains(kind) else {
            table.report(
                "kind",
                "unknown manifest kind `\(kind)`\(Suggestion.hint(for: kind, in: ManifestReaders.knownKinds)); known kinds: \(ManifestReaders.knownKinds.joined(separator: ", "))"
            )
            return nil
        }
        if kind == "regex", pattern == nil {
            table.report(
                nil,
                "[[version]] of kind `regex` needs `pattern` with a named group `version`, e.g. 'VERSION = \"(?<version>[^\"]+)\"'"
            )
        }
        if let pattern {
            if let problem = RegexManifestReader.checkPattern(pattern) { table.report("pattern", problem) }
        }
        return VersionSource(path: path, kind: kind, pattern: pattern, line: table.line)
    }

    private static func template(
        _ table: TableReader, _ key: String, allowed: [String] = Template.perTarget
    ) -> Template? {
        guard let text = table.string(key) else { return nil }
        do { return try Template(text, allowed: allowed) } catch let error as RelctlError {
            table.report(key, error.message)
            return nil
        } catch { return nil }
    }

    /// `binary-dir`: build, package and release (with prebuilt CI artifacts) all look for it
    /// under a root of their own, so an absolute path would be looked up in the wrong place.
    private static func binaryDirectory(_ table: TableReader) -> Template? {
        guard let directory = template(table, "binary-dir") else { return nil }
        if let problem = WorkflowValue.problem(in: directory.text) {
            table.report("binary-dir", "`binary-dir` \(QuotedString.basic(directory.text)) \(problem)")
            return nil
        }
        guard !directory.text.hasPrefix("/") else {
            table.report(
                "binary-dir",
                "`binary-dir` must be relative to the project root (like `target/{target}/release`), found `\(directory.text)`"
            )
            return nil
        }
        return directory
    }

    private static func readBuild(_ table: TableReader) -> BuildSettings {
        var build = BuildSettings()
        build.command = template(table, "command")
        build.binaries = table.strings("binaries") ?? []
        for binary in build.binaries where binary.isEmpty || binary.contains("/") || binary.contains("{") {
            table.report(
                "binaries",
                "binary name `\(binary)` must be a plain file name (no `/`, no placeholders; `.exe` is added for Windows)"
            )
        }
        for binary in build.binaries {
            if let problem = WorkflowValue.problem(in: binary) {
                table.report("binaries", "binary name \(QuotedString.basic(binary)) \(problem)")
            }
        }
        var listed: Set<String> = []
        for binary in build.binaries where !listed.insert(binary).inserted {
            table.report(
                "binaries", "binary `\(binary)` is listed more than once in [build] binaries; list each binary once")
        }
        build.optionalBinaries = table.strings("optional-binaries") ?? []
        for binary in build.optionalBinaries where !build.binaries.contains(binary) {
            table.report(
                "optional-binaries",
                "optional binary `\(binary)` is not in `binaries`; list it there too (optional-binaries only marks which may be missing)"
            )
        }
        if let directory = binaryDirectory(table) { build.binaryDirectory = directory }
        if let env = table.table("env") {
            for key in env.values.keys.sorted() {
                // Values are rendered per target like `command`, so their placeholders are checked too.
                if let value = template(env, key) { build.environment[key] = value.text }
            }
        }
        table.finish()
        return build
    }

    private static func readTarget(_ table: TableReader) -> TargetSettings? {
        defer { table.finish() }
        // Every key is read before the triple is judged, so a bad triple does not also turn the
        // entry's other keys into "unknown key" reports.
        var target = TargetSettings(triple: table.string("triple") ?? "", line: table.line)
        target.runner = table.string("runner")
        // One format, or several (`["tar.gz", "zip"]`): each is an archive of its own;
        // `artifactbundle` puts the target's binaries in the release's one SwiftPM bundle.
        let known = ArchiveFormats.ids + [ArtifactBundle.format]
        for format in table.strings("format") ?? [] {
            if known.contains(format) {
                if target.format == nil {
                    target.format = format
                } else if target.format != format && !target.extraFormats.contains(format) {
                    target.extraFormats.append(format)
                }
            } else {
                table.report(
                    "format",
                    "unknown archive format `\(format)`\(Suggestion.hint(for: format, in: known)); known formats: \(known.joined(separator: ", "))"
                )
            }
        }
        if let links = table.string("links") {
            if let policy = LinksPolicy(rawValue: links) {
                target.links = policy
            } else {
                table.report(
                    "links",
                    "`links` must be `keep` (store symlinks) or `copy` (store the files they point to), found `\(links)`"
                )
            }
        }
        target.command = template(table, "command")
        target.binaryDirectory = binaryDirectory(table)
        target.archiveName = template(table, "name")
        guard let triple = table.values["triple"] else {
            table.report(nil, "every [[target]] needs `triple`, e.g. `x86_64-unknown-linux-musl`")
            return nil
        }
        // A `triple` of the wrong type has been reported already.
        guard triple.string != nil else { return nil }
        // The triple names archives, folders and CI jobs: keep it to what a file name can hold.
        guard !target.triple.isEmpty,
            target.triple.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) })
        else {
            table.report(
                "triple",
                "target triple `\(target.triple)` may only hold letters, digits, `-`, `_` and `.` (e.g. `x86_64-unknown-linux-musl`)"
            )
            return nil
        }
        return target
    }

    private static func mapping(
        _ item: Either<String, TableReader>, allowed: [String], owner: TableReader, key: String
    ) -> PathMapping? {
        switch item {
        case .left(let text):
            do {
                let from = try Template(text, allowed: allowed)
                return PathMapping(from: from, to: from)
            } catch {
                owner.report(key, "`\(key)`: \((error as? RelctlError)?.message ?? "\(error)")")
                return nil
            }
        case .right(let table):
            defer { table.finish() }
            let to = template(table, "to", allowed: allowed)
            guard table.values["from"] != nil else {
                table.report(nil, "each table in `\(key)` needs `from` (and optionally `to`)")
                return nil
            }
            guard let from = template(table, "from", allowed: allowed) else { return nil }
            return PathMapping(from: from, to: to ?? from)
        }
    }

    private static func readArchive(_ table: TableReader) -> ArchiveSettings {
        var archive = ArchiveSettings()
        if let name = template(table, "name") { archive.name = name }
        archive.files = table.items("files").compactMap {
            mapping($0, allowed: Template.perTarget, owner: table, key: "files")
        }
        archive.trees = table.items("trees").compactMap {
            mapping($0, allowed: Template.perTarget, owner: table, key: "trees")
        }
        if let setupEnv = table.bool("setup-env") { archive.setupEnv = setupEnv }
        if let topFolder = table.bool("top-folder") { archive.topFolder = topFolder }
        archive.stage = template(table, "stage")
        archive.exclude = table.strings("exclude") ?? []
        if let level = table.integer("compression-level") {
            if (0...19).contains(level) {
                archive.compressionLevel = level
            } else {
                archive.invalidCompressionLevel = level
            }
        }
        for rule in table.tables("symlink") {
            let path = template(rule, "path", allowed: Template.all)
            let to = template(rule, "to", allowed: Template.all)
            if let path, let to {
                archive.symlinks.append(SymlinkRule(path: path, to: to))
            } else if rule.values["path"] == nil || rule.values["to"] == nil {
                rule.report(
                    nil,
                    "every [[archive.symlink]] needs `path` (the link, inside the archive) and `to` (where it points, relative to the link)"
                )
            }
            rule.finish()
        }
        table.finish()
        return archive
    }

    private static func readChecksum(_ table: TableReader) -> ChecksumSettings {
        var settings = ChecksumSettings()
        if let algorithm = table.string("algorithm") {
            if ["sha256", "sha512"].contains(algorithm) {
                settings.algorithm = algorithm
            } else {
                table.report("algorithm", "unknown checksum algorithm `\(algorithm)`; known: sha256, sha512")
            }
        }
        table.finish()
        return settings
    }

    private static func readNotes(_ table: TableReader) -> NotesSettings {
        var notes = NotesSettings()
        notes.template = table.string("template")
        let groups = table.tables("groups")
        if !groups.isEmpty {
            notes.groups = groups.compactMap { group in
                defer { group.finish() }
                guard let title = group.string("title"), let types = group.strings("types") else {
                    group.report(nil, "each [[notes.groups]] needs `title` and `types`")
                    return nil
                }
                return NotesGroup(title: title, types: types)
            }
        }
        if let other = table.bool("include-other") { notes.includeOther = other }
        if let merges = table.bool("include-merges") { notes.includeMerges = merges }
        if let skip = table.bool("skip-prereleases") { notes.skipPrereleases = skip }
        table.finish()
        return notes
    }

    private static func readRelease(_ table: TableReader) -> ReleaseSettings {
        var release = ReleaseSettings()
        if let branches = table.strings("branches") { release.branches = branches }
        if let remote = table.string("remote") { release.remote = remote }
        if let sign = table.bool("sign") { release.sign = sign }
        if let before = table.strings("before") { release.before = before }
        if let after = table.strings("after") { release.after = after }
        table.finish()
        return release
    }

    /// `[workspace]`: `members` (folders or globs), `tag-format` with `{member}` and `{version}`, and
    /// `[[workspace.group]]` tables.
    private static func readWorkspace(_ table: TableReader) -> WorkspaceSettings? {
        defer { table.finish() }
        var workspace = WorkspaceSettings(members: table.strings("members") ?? [])
        if table.values["members"] == nil || workspace.members.isEmpty {
            table.report("members", "[workspace] needs `members`, the member folders or globs (`crates/*`)")
        }
        for member in workspace.members
        where member.isEmpty || member.hasPrefix("/") || member.split(separator: "/").contains("..") {
            table.report("members", "member `\(member)` must be a folder inside the workspace, relative to it")
        }
        if let format = table.string("tag-format") {
            if !format.contains("{member}") {
                table.report(
                    "tag-format",
                    "`tag-format` `\(format)` must hold `{member}`: members' tags must not collide (e.g. `{member}-v{version}`)"
                )
            } else {
                do {
                    _ = try WorkspaceSettings(members: [], tagFormat: format).tagFormat(for: "member", scheme: .semver)
                    workspace.tagFormat = format
                } catch let error as RelctlError {
                    table.report("tag-format", error.message)
                } catch {}
            }
        }
        if let formats = table.table("tag-formats") {
            defer { formats.finish() }
            for name in formats.values.keys.sorted() {
                guard let format = formats.string(name) else { continue }
                do {
                    _ = try WorkspaceSettings(members: [], tagFormat: format).tagFormat(for: name, scheme: .semver)
                    workspace.memberTagFormats[name] = format
                } catch let error as RelctlError {
                    formats.report(name, error.message)
                } catch {}
            }
        }
        for group in table.tables("group") {
            defer { group.finish() }
            guard let name = group.string("name"), let members = group.strings("members"), !members.isEmpty else {
                group.report(nil, "every [[workspace.group]] needs `name` and `members` (member names)")
                continue
            }
            workspace.groups.append(.init(name: name, members: members))
        }
        return workspace
    }

    /// `[versioning]`: fragments, the changelog file, the 0.x rule and the release cadence.
    private static func readVersioning(_ table: TableReader) -> VersioningSettings {
        defer { table.finish() }
        var settings = VersioningSettings()
        settings.isSet = true
        func choice<Value: RawRepresentable & CaseIterable>(_ key: String, _: Value.Type) -> Value?
        where Value.RawValue == String {
            guard let text = table.string(key) else { return nil }
            if let value = Value(rawValue: text) { return value }
            let known = Value.allCases.map(\.rawValue)
            table.report(
                key,
                "unknown [versioning] \(key) `\(text)`\(Suggestion.hint(for: text, in: known)); use \(known.map { "`\($0)`" }.joined(separator: " or ")) (docs/versions.md)"
            )
            return nil
        }
        settings.fragments = choice("fragments", VersioningSettings.Fragments.self)
        if let changelog = table.string("changelog") {
            if changelog.trimmingCharacters(in: .whitespaces).isEmpty {
                table.report(
                    "changelog", "[versioning] changelog is empty; name the changelog file (`CHANGELOG.md`) or remove the key")
            } else {
                settings.changelog = changelog
            }
        }
        if let rule = choice("zero-major", VersioningSettings.ZeroMajor.self) { settings.zeroMajor = rule }
        if let rule = choice("breaking", VersioningSettings.Breaking.self) { settings.breaking = rule }
        if let rule = choice("features", VersioningSettings.Features.self) { settings.features = rule }
        if let rule = choice("untyped-adds", VersioningSettings.UntypedAdds.self) { settings.untypedAdds = rule }
        settings.cadence = choice("cadence", VersioningSettings.Cadence.self)
        if let flag = table.bool("scope-levels") { settings.scopeLevels = flag }
        return settings
    }

    /// A `[[branch]]`: `name` and exactly one of `prerelease` and `range`; in a workspace root,
    /// `members` when the line is some members' only.
    private static func readBranch(_ table: TableReader) -> BranchRule? {
        defer { table.finish() }
        let name = table.string("name")
        if name == nil, table.values["name"] == nil {
            table.report(nil, "every [[branch]] needs `name`, the branch name or glob (`next`, `release/5.*`)")
        }
        if let name, name.isEmpty { table.report("name", "`name` is empty; give the branch name or glob") }
        let prerelease = table.string("prerelease")
        let range = table.string("range")
        var line: BranchRule.Line?
        switch (prerelease, range) {
        case let (identifier?, nil):
            if let problem = BranchRule.problem(prerelease: identifier) {
                table.report("prerelease", problem)
            } else {
                line = .prerelease(identifier)
            }
        case let (nil, text?):
            if let parsed = VersionRange(text) {
                line = .maintenance(parsed)
            } else {
                table.report("range", "`range` `\(text)` must be a major or minor line: `5.x` or `5.2.x`")
            }
        case (.some, .some):
            table.report(
                "range",
                "a [[branch]] is a prerelease line or a maintenance line: give `prerelease` or `range`, not both")
        case (nil, nil):
            guard table.values["prerelease"] == nil, table.values["range"] == nil else { break }
            // Without either, the name gives the range (`9.1.x`, `release-3.5`), or, for a glob
            // (`[0-9]*.x`, `release-*`), the name of each branch it matches does (docs/branches.md).
            if let name, let range = BranchRule.range(fromName: name) {
                line = .maintenance(range)
            } else if let name, name.contains(where: { "*?[".contains($0) }) {
                line = .rangeFromName
            } else {
                table.report(
                    nil,
                    "[[branch]] `\(name ?? "")` needs `prerelease` (e.g. `\"rc\"`) or `range` (e.g. `\"5.x\"`); only a name ending in a version line (`9.1.x`, `release-3.5`) or a glob (`[0-9]*.x`) gives its range itself"
                )
            }
        }
        let members = table.strings("members")
        if let members, members.isEmpty || members.contains(where: \.isEmpty) {
            table.report("members", "`members` names the workspace members the rule serves; leave it out for every member")
        }
        let keepsInRange = table.bool("keep-in-range") ?? false
        if keepsInRange, case .prerelease? = line {
            table.report(
                "keep-in-range",
                "`keep-in-range` is for a maintenance line (`range`); a prerelease line has no range to keep")
        }
        guard let name, !name.isEmpty, let line else { return nil }
        return BranchRule(name: name, line: line, configLine: table.line, members: members, keepsInRange: keepsInRange)
    }

    private static func readCI(_ table: TableReader) -> CISettings {
        var ci = CISettings()
        if let node = table.values["setup"],
            node.table != nil || node.array?.contains(where: { $0.table != nil }) == true
        {
            // `[[ci.setup]]`: steps with `run` or `uses`, `with`, `env` and `secrets`.
            ci.setupSteps = readSetupSteps(table)
        } else if let setup = table.strings("setup") {
            ci.setup = readSetupLines(setup, table: table, key: "setup", what: "`[ci] setup` line")
        }
        if let workflow = table.string("workflow") {
            // `ci generate` writes this file and may replace it: keep it inside the project.
            let parts = workflow.split(separator: "/", omittingEmptySubsequences: true)
            if workflow.hasPrefix("/") || parts.isEmpty || parts.contains("..") {
                table.report(
                    "workflow",
                    "`ci.workflow` must be a file path inside the project, relative to its root (e.g. `.github/workflows/release.yml`), found `\(workflow)`"
                )
            } else {
                ci.workflow = workflow
            }
        }
        if let attest = table.bool("attest") { ci.attest = attest }
        if let releasePR = table.bool("release-pr") { ci.releasePR = releasePR }
        readRelctlInstall(table, into: &ci)
        if let providers = table.strings("providers") { ci.providers = readProviders(providers, table: table) }
        table.finish()
        return ci
    }

    private static func readSign(_ table: TableReader) -> SignSettings {
        var sign = SignSettings()
        for key in ["ssh-key", "minisign-key", "allowed-signers", "minisign-public-key"] {
            guard let path = table.string(key) else { continue }
            if path.isEmpty {
                table.report(key, "`sign.\(key)` must be a file path (relative to the project root)"); continue
            }
            switch key {
            case "ssh-key": sign.sshKey = path
            case "minisign-key": sign.minisignKey = path
            case "allowed-signers": sign.allowedSigners = path
            default: sign.minisignPublicKey = path
            }
        }
        table.finish()
        return sign
    }

    private static func readPublish(_ table: TableReader) -> PublishSettings {
        var publish = PublishSettings()
        if let github = table.string("github") {
            if GitHubRepository(github) == nil {
                table.report(
                    "github", "`publish.github` must be OWNER/REPO (e.g. \"acme/velostream\"), found `\(github)`")
            }
            publish.github = github
        }
        if let gitlab = table.string("gitlab") {
            if GitLabProject(gitlab) == nil {
                table.report(
                    "gitlab",
                    "`publish.gitlab` must be the project's path, GROUP[/SUBGROUP...]/PROJECT (e.g. \"acme/tools/velostream\"), found `\(gitlab)`"
                )
            }
            publish.gitlab = gitlab
        }
        if let gitea = table.string("gitea") {
            if GitHubRepository(gitea) == nil {
                table.report("gitea", "`publish.gitea` must be OWNER/REPO (e.g. \"acme/velostream\"), found `\(gitea)`")
            }
            publish.gitea = gitea
        }
        for id in PublisherRegistry.addedIDs {
            if let value = table.string(id) { publish.extensions[id] = value }
        }
        table.finish()
        return publish
    }
}
