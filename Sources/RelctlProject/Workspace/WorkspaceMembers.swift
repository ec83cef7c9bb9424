import Foundation
import RelctlBasics
import RelctlChanges
import RelctlModel

/// One member of a `[workspace]`: a folder with its own version line.
package struct WorkspaceMember: Sendable {
    /// `{member}` in the tag format: the member's `relctl.toml` `[project] name`, else its
    /// manifest's package name (Cargo, npm, pyproject, SwiftPM, Chart.yaml), else the folder's.
    package var name: String
    /// The folder, relative to the workspace root, as `relctl plan` shows it.
    package var path: String
    /// How the member is released: its own relctl.toml, or one made from its manifests, with the
    /// workspace's tag format and branch rules where it sets none.
    package var config: RelctlConfig
    /// The paths whose commits are the member's changes (relative to the repository's top).
    package var history: HistoryPaths
    /// Its manifest says it is never published (`publish = false`, `"private": true`): until it is
    /// tagged, nothing of it is released (`plan` gives no next version, `--pending` skips it).
    package var unpublished = false
}

/// Finds a workspace's members: `[workspace] members` expanded (a glob matches folders that hold
/// a manifest or a relctl.toml; a plain folder must exist), each read once.
package enum WorkspaceMembers {
    /// The members of `config`'s workspace, sorted by path. `prefix` is the workspace root's folder
    /// relative to the repository's top (`""` at the top).
    package static func resolve(_ config: RelctlConfig, prefix: String = "") throws -> [WorkspaceMember] {
        guard let workspace = config.workspace else { return [] }
        var folders: [String] = []
        var problems: [any RelctlError] = []
        for pattern in workspace.members {
            let trimmed = HistoryPaths(folder: pattern).folder
            if trimmed.contains(where: { "*?[".contains($0) }) {
                let found = expand(trimmed, root: config.root).filter { isMemberFolder(config.root, $0) }
                if found.isEmpty {
                    problems.append(WorkspaceMemberError.noMatch(config: config.path, pattern: pattern))
                }
                folders += found
            } else if FileSystem.isDirectory(config.root.appendingPathComponent(trimmed)) {
                folders.append(trimmed)
            } else {
                problems.append(WorkspaceMemberError.noFolder(config: config.path, folder: pattern))
            }
        }
        folders = once(folders, root: config.root)
        var members: [WorkspaceMember] = []
        for folder in folders {
            do {
                // Through the one path rule: a member folder (or a folder on its way) that is a link
                // out of the workspace would make relctl read another tree's manifests and config.
                _ = try ConfinedPath.resolveInside(folder, root: config.root, what: "[workspace] members")
                members.append(
                    try member(
                        at: folder, workspace: workspace, config: config, prefix: prefix,
                        nested: nested(in: folder, among: folders)))
            } catch let error as RelctlError {
                problems.append(error)
            }
        }
        var byName: [String: String] = [:]
        for member in members {
            if let other = byName[member.name] {
                problems.append(
                    WorkspaceMemberError.duplicateName(
                        config: config.path, name: member.name, folders: [other, member.path]))
            }
            byName[member.name] = member.path
        }
        for name in workspace.memberTagFormats.keys.sorted() where byName[name] == nil {
            problems.append(
                WorkspaceMemberError.unknownTagFormatMember(config: config.path, name: name, known: members.map(\.name))
            )
        }
        for group in workspace.groups {
            for name in group.members where byName[name] == nil {
                problems.append(
                    WorkspaceMemberError.unknownGroupMember(
                        config: config.path, group: group.name, name: name, known: members.map(\.name)))
            }
        }
        for rule in config.branches {
            for name in rule.members ?? [] where byName[name] == nil {
                problems.append(
                    WorkspaceMemberError.unknownBranchMember(
                        config: config.path, branch: rule.name, name: name, known: members.map(\.name)))
            }
        }
        if !problems.isEmpty { throw ProblemList(problems) }
        return members
    }

    /// `config` as its workspace sees it, when it is the own relctl.toml of a member of a
    /// `[workspace]` further up (relctl run in `crates/core`): the member's name, tag format,
    /// branch rules and history, as at the root, so a member releases alike from either place.
    /// Nil when no enclosing relctl.toml (up to the repository's top) has it as a member.
    package static func enclosing(of config: RelctlConfig) throws -> RelctlConfig? {
        guard config.workspace == nil, config.workspaceMember == nil else { return nil }
        let own = config.root.standardizedFileURL
        var folder = own
        var found: (root: URL, document: TOMLDocument)?
        for _ in 0..<32 {
            let atTop = FileSystem.exists(folder.appendingPathComponent(".git"))
            if folder.path != own.path, found == nil {
                let candidate = folder.appendingPathComponent(RelctlConfig.fileName)
                if FileSystem.exists(candidate),
                    let document = try? TOMLDocument(
                        file: ProjectFile.open(location: candidate, shown: candidate.path)),
                    document.root["workspace"]?.table != nil
                {
                    found = (folder, document)
                }
            }
            if atTop { break }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { break }
            folder = parent
        }
        guard let (root, document) = found else { return nil }
        let workspaceConfig = try ConfigLoader.parse(document, root: root)
        guard let workspace = workspaceConfig.workspace else { return nil }
        let relative = String(own.path.dropFirst(root.path.count + 1))
        let all = folders(matching: workspace.members, root: root)
        guard all.contains(relative) else { return nil }
        // The workspace root's folder relative to the repository's top (where `.git` was found).
        let top = folder.path == root.path ? "" : String(root.path.dropFirst(folder.path.count + 1))
        var member = try self.member(
            at: relative, workspace: workspace, config: workspaceConfig, prefix: top,
            nested: nested(in: relative, among: all)
        ).config
        member.path = config.path
        return member
    }

    /// The member `tag` is a release of (`relctl release core-v1.2.0` at the workspace root).
    /// A tag no member's format reads, or one several read, is bad input naming the formats.
    package static func member(
        forTag tag: String, in members: [WorkspaceMember], config: RelctlConfig
    ) throws
        -> WorkspaceMember
    {
        let matching = members.filter {
            if case .release = TagReader($0.config.project.tagFormat).read(tag) { return true }
            return false
        }
        guard matching.count == 1 else {
            throw WorkspaceMemberError.tagOfNoMember(
                config: config.path, tag: tag, matching: matching.map(\.name),
                formats: members.prefix(3).map {
                    $0.config.project.tagFormat.tag(for: SemanticVersion(major: 1, minor: 2, patch: 0))
                })
        }
        return matching[0]
    }

    /// The member folders `patterns` name under `root` (globs expanded), as `resolve` finds them,
    /// without reading any member: what `init` offers.
    package static func folders(matching patterns: [String], root: URL) -> [String] {
        var found: [String] = []
        for pattern in patterns {
            // Within one read of a project (`TOMLReadCache`) no folder changes, and init asks the
            // same globs several times: astro's `packages/**/*` lists thousands of folders.
            let key = "member-glob\u{0}" + root.path + "\u{0}" + pattern
            if let known = TOMLReadCache.current?.value(key, as: [String].self) {
                found += known
                continue
            }
            let trimmed = HistoryPaths(folder: pattern).folder
            let candidates = trimmed.contains(where: { "*?[".contains($0) }) ? expand(trimmed, root: root) : [trimmed]
            let members = candidates.filter { isMemberFolder(root, $0) }
            TOMLReadCache.current?.keep(members, for: key)
            found += members
        }
        return once(found, root: root)
    }

    /// Each folder once, sorted, where it really is: a folder named twice, or a link to another
    /// member's folder or to the root (`crates/loop` → `..` beside the root member `.`), is the
    /// member it leads to, read once.
    package static func once(_ folders: [String], root: URL) -> [String] {
        var seen: Set<String> = []
        var places: Set<String> = []
        return Array(Set(folders)).sorted().filter { folder in
            let url = folder.isEmpty ? root : root.appendingPathComponent(folder)
            let place = FileSystem.realPath(url.path) ?? url.standardizedFileURL.path
            return seen.insert(folder).inserted && places.insert(place).inserted
        }
    }

    /// How many folders deep a `**` in a member glob looks.
    package static let deepestGlob = 8

    /// Folders under `root` matching `pattern` component by component (`crates/*`, `packages/*/js`);
    /// hidden folders only when the component names them. `**` spans any number of folders
    /// (`packages/**`: every folder below `packages`, at most `deepestGlob` deep, never into
    /// `node_modules` or hidden folders, each real folder once, so a link back up ends the walk).
    package static func expand(_ pattern: String, root: URL) -> [String] {
        // Paths as text, not URLs: astro's `packages/**/*` visits thousands of folders, and
        // Foundation's URL appending was a sixth of its init.
        let top = Self.path(of: root)
        var found = [""]
        let components = pattern.split(separator: "/").map(String.init)
        for (position, component) in components.enumerated() {
            if component == "**" {
                found = deep(below: found, top: top, includingBases: position < components.count - 1)
                continue
            }
            var next: [String] = []
            for base in found {
                let names = ((try? FileSystem.names(atPath: Self.join(top, base))) ?? []).sorted()
                for name in names where Glob.matches(component, name) {
                    guard !name.hasPrefix(".") || component.hasPrefix(".") else { continue }
                    let path = base.isEmpty ? name : base + "/" + name
                    if FileSystem.kind(atPath: Self.join(top, path)) == .directory { next.append(path) }
                }
            }
            found = next
        }
        return found
    }

    /// `bases` and the folders below them (`**`), breadth first, each real folder once.
    private static func deep(below bases: [String], top: String, includingBases: Bool) -> [String] {
        var queue = bases.map { (path: $0, depth: 0) }
        var seen: Set<String> = []
        var found: [String] = []
        var index = 0
        while index < queue.count {
            let (base, depth) = queue[index]
            index += 1
            let folder = Self.join(top, base)
            guard seen.insert(FileSystem.realPath(folder) ?? folder).inserted else { continue }
            if depth > 0 || includingBases { found.append(base) }
            guard depth < deepestGlob else { continue }
            for name in ((try? FileSystem.names(atPath: folder)) ?? []).sorted()
            where !name.hasPrefix(".") && name != "node_modules" {
                let path = base.isEmpty ? name : base + "/" + name
                if FileSystem.kind(atPath: Self.join(top, path)) == .directory { queue.append((path, depth + 1)) }
            }
        }
        return found.sorted()
    }

    /// The root's path as text, without a trailing slash (`/` stays `/`).
    private static func path(of root: URL) -> String {
        let path = root.standardizedFileURL.path
        return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// `relative` (`a/b`, or empty for the root itself) inside the folder `top`.
    private static func join(_ top: String, _ relative: String) -> String {
        relative.isEmpty ? top : (top == "/" ? "/" + relative : top + "/" + relative)
    }

    /// Whether a folder a glob matched is a member: it holds a relctl.toml or a manifest.
    package static func isMemberFolder(_ root: URL, _ folder: String) -> Bool {
        let path = join(path(of: root), folder)
        if ([RelctlConfig.fileName, HelmChartFile.name, Pubspec.fileName] + StarterConfig.detectable).contains(where: {
            FileSystem.exists(atPath: path + "/" + $0)
        }) {
            return true
        }
        return releasePleaseFolders(root).contains(folder)
    }

    /// The package folders `release-please-config.json` at `root` lists: a package there is a
    /// member though its folder holds no manifest relctl reads (formatjs builds `packages/cli`'s
    /// package.json with Bazel; release-please writes its version into BUILD.bazel).
    static func releasePleaseFolders(_ root: URL) -> Set<String> {
        // One stat for the many folders of a workspace without the file (astro's `packages/**/*`).
        guard FileSystem.exists(atPath: join(path(of: root), StarterConfig.releasePleaseConfig)) else { return [] }
        let key = "release-please-folders\u{0}" + root.path
        if let known = TOMLReadCache.current?.value(key, as: Set<String>.self) { return known }
        let folders = Set(MemberDiscovery.releasePleaseNames(root: root).keys.filter { !$0.isEmpty })
        TOMLReadCache.current?.keep(folders, for: key)
        return folders
    }

    /// The members inside `folder` (a root member `.` holding `charts/*`), as exclude globs
    /// relative to it: their commits are theirs, not the enclosing member's too.
    package static func nested(in folder: String, among folders: [String]) -> [String] {
        folders.compactMap { other in
            guard other != folder else { return nil }
            if folder.isEmpty { return other + "/**" }
            return other.hasPrefix(folder + "/") ? String(other.dropFirst(folder.count + 1)) + "/**" : nil
        }
    }

    package static func member(
        at folder: String, workspace: WorkspaceSettings, config: RelctlConfig, prefix: String, nested: [String] = []
    ) throws -> WorkspaceMember {
        let url = config.root.appendingPathComponent(folder)
        let shownConfig = folder + "/" + RelctlConfig.fileName
        var member: RelctlConfig
        var ownFormat = false
        var ownScheme = false
        // The member's own relctl.toml is a project file: a link out of the repository is refused
        // before it is read as the member's name, tags and build command (issue 55, finding 5).
        let ownConfig = try ProjectFile.open(
            folder.isEmpty ? RelctlConfig.fileName : folder + "/" + RelctlConfig.fileName, in: config.root,
            what: "the member's configuration", shown: shownConfig)
        if ownConfig.exists {
            let document = try TOMLDocument(file: ownConfig)
            member = try ConfigLoader.parse(document, root: url)
            ownFormat = document.root["project"]?.table?["tag-format"] != nil
            ownScheme = document.root["project"]?.table?["version-scheme"] != nil
            if document.root["project"]?.table?["name"] == nil { member.project.name = detectedName(url, folder) }
            if member.versions.isEmpty { member.versions = detectedVersions(url) }
            // The tag names the member already (`core-v1.1.0`): `{project}-{tag}` would say it twice.
            if document.root["archive"]?.table?["name"] == nil {
                member.archive.name = Template("{project}-{version}-{target}")
            }
        } else {
            member = RelctlConfig.defaults(root: url)
            member.path = config.path
            member.project.name = detectedName(url, folder)
            member.versions = detectedVersions(url)
        }
        // The root's `version-scheme` is every member's that does not set its own (mise's
        // `vfox-v2026.8.15` is a calendar version as its `v2026.8.1` is).
        if !ownScheme { member.project.tagFormat.scheme = config.project.tagFormat.scheme }
        member.project.tagFormat.readsPEP440 = ManifestReaders.readsPEP440Tags(member.versions, root: url)
        if !ownFormat {
            do {
                var format = try workspace.tagFormat(for: member.project.name, scheme: member.project.tagFormat.scheme)
                format.readsPEP440 = member.project.tagFormat.readsPEP440
                member.project.tagFormat = format
            } catch let error as RelctlError {
                throw WorkspaceMemberError.badMemberTagFormat(
                    config: config.path, folder: folder, name: member.project.name, reason: error.message)
            }
        }
        // The root's [[branch]] rules serve every member they name (all without `members`); a
        // member's own rule of the same name wins.
        member.branches += config.branches.filter { root in
            root.serves(member: member.project.name) && !member.branches.contains { $0.name == root.name }
        }.map { root in
            var served = root
            served.members = nil
            return served
        }
        if !member.versioning.isSet { member.versioning = config.versioning }
        member.workspaceMember = member.project.name
        // A root member `.` reads the workspace's own relctl.toml: as a member it has no members.
        member.workspace = nil
        member.project.exclude += nested.filter { !member.project.exclude.contains($0) }
        let top = [prefix, folder].filter { !$0.isEmpty }.joined(separator: "/")
        // The rule for its files is the repository, not its folder: a version file or an include
        // glob may name `../../charts/app/Chart.yaml` or `../../proto/**`, never a place above the top.
        var repository = config.root
        for _ in prefix.split(separator: "/") { repository.deleteLastPathComponent() }
        member.repositoryRoot = repository
        for source in member.versions {
            do {
                _ = try ManifestReaders.location(of: source.path, root: url, within: repository)
            } catch let error as ConfinedPathError {
                throw WorkspaceMemberError.outsideRepository(
                    config: ownConfig.exists ? shownConfig : config.path, folder: folder, what: "[[version]] path", path: source.path, step: error.step)
            }
        }
        for include in member.project.include where HistoryPaths.leavesTop(folder: top, glob: include) {
            throw WorkspaceMemberError.outsideRepository(
                config: ownConfig.exists ? shownConfig : config.path, folder: folder, what: "[project] include", path: include,
                step: "`\(include)` (`..` above the repository's top, or an absolute path)")
        }
        return WorkspaceMember(
            name: member.project.name, path: folder.isEmpty ? "." : folder, config: member,
            history: HistoryPaths(folder: top, include: member.project.include, exclude: member.project.exclude),
            unpublished: MemberDiscovery.isUnpublished(url))
    }

    /// A chart's `name`, else what `init` would call a project in the folder, else the folder's name.
    package static func detectedName(_ url: URL, _ folder: String) -> String {
        let chart = url.appendingPathComponent(HelmChartFile.name)
        if FileSystem.exists(chart),
            let name = try? HelmChartFile.read(chart, displayPath: HelmChartFile.name)
                .values["name"]?.text, !name.isEmpty
        {
            return name
        }
        let detected = StarterConfig.detectable.filter { FileSystem.exists(url.appendingPathComponent($0)) }
        if detected.isEmpty, let name = Pubspec.read(in: url)?.name, !name.isEmpty { return name }
        guard !detected.isEmpty else { return url.lastPathComponent }
        return StarterConfig.package(root: url, detected: detected).name
    }

    /// The version locations `init` would write for the folder; a chart's own `version` when it
    /// has no other manifest.
    package static func detectedVersions(_ url: URL) -> [VersionSource] {
        let detected = StarterConfig.detectable.filter { FileSystem.exists(url.appendingPathComponent($0)) }
        var versions = StarterConfig.package(root: url, detected: detected).versions.compactMap {
            entry -> VersionSource? in
            guard let kind = entry.kind ?? ManifestReaders.kind(forFileName: entry.path) else { return nil }
            return VersionSource(path: entry.path, kind: kind, pattern: entry.pattern)
        }
        if versions.isEmpty, FileSystem.exists(url.appendingPathComponent(HelmChartFile.name)) {
            versions.append(VersionSource(path: HelmChartFile.name, kind: HelmManifestReader.versionKind))
        }
        return versions
    }
}

/// Problems with `[workspace]`: bad input (exit 2), every one listed.
package enum WorkspaceMemberError: RelctlError {
    case noFolder(config: String, folder: String)
    case noMatch(config: String, pattern: String)
    case duplicateName(config: String, name: String, folders: [String])
    case unknownGroupMember(config: String, group: String, name: String, known: [String])
    /// A root `[[branch]]`'s `members` naming no member.
    case unknownBranchMember(config: String, branch: String, name: String, known: [String])
    case badMemberTagFormat(config: String, folder: String, name: String, reason: String)
    case unknownMember(config: String, name: String, known: [String])
    /// `[workspace.tag-formats]` naming no member.
    case unknownTagFormatMember(config: String, name: String, known: [String])
    /// `release TAG` at a workspace root with a tag that is no single member's release.
    case tagOfNoMember(config: String, tag: String, matching: [String], formats: [String])
    /// `--member` where relctl.toml has no `[workspace]`.
    case notAWorkspace(config: String)
    /// A member's `[[version]] path` or `include` glob leading out of the repository (`..` above
    /// its top, an absolute path elsewhere, a link out): `step` says which.
    case outsideRepository(config: String, folder: String, what: String, path: String, step: String)

    package var exitCode: RelctlExitCode { .badInput }

    package var diagnostics: [Diagnostic] {
        switch self {
        case let .noFolder(config, folder):
            return [
                Diagnostic(file: config, "[workspace] member `\(folder)` is not a folder; fix `members` or create it")
            ]
        case let .noMatch(config, pattern):
            return [
                Diagnostic(
                    file: config,
                    "[workspace] members `\(pattern)` matches no folder holding a manifest or a relctl.toml; fix the glob"
                )
            ]
        case let .duplicateName(config, name, folders):
            return [
                Diagnostic(
                    file: config,
                    "members \(folders.map { "`\($0)`" }.joined(separator: " and ")) are both named `\(outside: name)`, so their tags would collide; give one a [project] name in its own relctl.toml"
                )
            ]
        case let .unknownGroupMember(config, group, name, known):
            return [
                Diagnostic(
                    file: config,
                    "[[workspace.group]] `\(group)` names `\(name)`, which is no member\(Suggestion.hint(for: name, in: known)); members: \(known.joined(separator: ", "))"
                )
            ]
        case let .unknownBranchMember(config, branch, name, known):
            return [
                Diagnostic(
                    file: config,
                    "[[branch]] `\(outside: branch)` names `\(outside: name)` in `members`, which is no member\(Suggestion.hint(for: name, in: known)); members: \(known.joined(separator: ", "))"
                )
            ]
        case let .badMemberTagFormat(config, folder, name, reason):
            return [
                Diagnostic(
                    file: config,
                    "member `\(outside: folder)` (named `\(outside: name)`) cannot have tags in [workspace] tag-format: \(outside: reason)")
            ]
        case let .outsideRepository(config, folder, what, path, step):
            return [
                Diagnostic(
                    file: config,
                    "member `\(folder.isEmpty ? "." : folder)`: \(what) `\(Console.printable(path))` leads outside the repository through \(step); a member's files may be anywhere in the repository (`../../charts/app/Chart.yaml`), never outside it: name a file inside it"
                )
            ]
        case .notAWorkspace(let config):
            return [
                Diagnostic(
                    file: config,
                    "has no [workspace], so it has no members: `--member` and `relctl ci pending` are for a workspace's root (docs/monorepos.md)"
                )
            ]
        case let .tagOfNoMember(config, tag, matching, formats):
            let why =
                matching.isEmpty
                ? "is no release of a workspace member (member tags look like \(formats.map { "`\($0)`" }.joined(separator: ", ")))"
                : "reads as a release of several members (\(matching.joined(separator: ", "))); give one of them its own tag-format"
            return [
                Diagnostic(
                    file: config,
                    "`\(tag)` \(why); release a member with its tag, or every pending member with `relctl release --pending`"
                )
            ]
        case let .unknownTagFormatMember(config, name, known):
            return [
                Diagnostic(
                    file: config,
                    "[workspace.tag-formats] names `\(name)`, which is no member\(Suggestion.hint(for: name, in: known)); members: \(known.joined(separator: ", "))"
                )
            ]
        case let .unknownMember(config, name, known):
            return [
                Diagnostic(
                    file: config,
                    "no workspace member is named `\(name)`\(Suggestion.hint(for: name, in: known)); members: \(known.joined(separator: ", "))"
                )
            ]
        }
    }
}
