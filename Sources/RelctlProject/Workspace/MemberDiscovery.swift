import Foundation
import RelctlBasics
import RelctlModel
import RelctlChanges

/// A package of the repository that its own manifests declare as a member, as `init` finds it
/// and `[workspace]` then names it: the folder, the name, the manifest's full package name, the
/// version it holds and whether it is ever published.
package struct DiscoveredMember: Sendable, Equatable {
    /// Relative to the root; `""` for the root itself (a Cargo root package listing `.`).
    package var folder: String
    /// `{member}`: what `WorkspaceMembers` calls it.
    package var name: String
    /// The manifest's own name where it differs (`@sveltejs/kit` for the member `kit`).
    package var packageName: String?
    /// The version its first manifest holds.
    package var version: String?
    /// `publish = false` (Cargo) or `"private": true` (npm).
    package var unpublished: Bool
    /// The name its release tool gives it where that differs (knope.toml's `[packages.versioning]`
    /// for the crate `knope-versioning`, tagged `versioning/v0.8.0`).
    package var releaseName: String? = nil
}

/// Which member globs a repository declares, and the members they give: one reading used by
/// `init` and by `[workspace]` members. Each member folder is read on its own
/// (`StarterConfig.package`), never its members, so the walk is one level deep and a member
/// listed twice (`.` and `crates/*`, or a glob matching the root) is read once.
package enum MemberDiscovery {
    /// The member globs the root's manifests declare, in order: Cargo `[workspace] members`
    /// (unless the workspace shares one `[workspace.package] version`), npm and yarn
    /// `workspaces`, pnpm's `pnpm-workspace.yaml` `packages`, and a `charts/` folder of charts.
    /// `excluded` are the negated globs (`!**/test/**`), without their `!`.
    package static func declaredGlobs(root: URL, detected: [String], tags: [String] = []) -> (members: [String], excluded: [String]) {
        var globs: [String] = []
        if detected.contains("Cargo.toml"),
            let document = try? TOMLDocument(file: ProjectFile.open("Cargo.toml", in: root)),
            let workspace = document.root["workspace"]?.table,
            workspace["package"]?.table?["version"]?.string == nil
        {
            let members = (workspace["members"]?.array ?? []).compactMap(\.string)
            let package = document.root["package"]?.table
            // A root Cargo.toml with a `[package]` of its own is a member too (Cargo's root
            // package: ripgrep's `ripgrep` beside its ten `crates/*`), released by the bare tags,
            // once the listed members make a workspace of their own: two crates or more, or one
            // with tags of its own (env_logger's `crates/env_filter`, `env_filter-v2.0.0`); one
            // crate beside the application otherwise is not one, and the root stays a single project.
            let listed = WorkspaceMembers.folders(matching: members, root: root)
            if package != nil, listed.count >= 2 || (listed.count == 1 && hasOwnTags(root.appendingPathComponent(listed[0]), tags: tags)) {
                globs.append(".")
            }
            globs += members
        }
        var npmGlobs: [String] = []
        let npmRoot = detected.contains("package.json") ? npmManifest(root) : nil
        if let object = npmRoot {
            npmGlobs +=
                (object["workspaces"] as? [String])
                ?? ((object["workspaces"] as? [String: Any])?["packages"] as? [String]) ?? []
        }
        npmGlobs += pnpmPackages(root: root)
        // A Dart workspace (flame's root pubspec.yaml `workspace:` with `packages/**`, or melos.yaml's
        // `packages:`): each package folder is a member, tagged as melos tags it (`flame_audio-v2.12.2`).
        npmGlobs += Pubspec.workspaceGlobs(root: root)
        // A root package.json that is a published package of its own beside the workspace's
        // (anthropic-sdk-typescript's `@anthropic-ai/sdk`, `sdk-v0.120.0`, beside `packages/*`) is
        // a member too, as release-please's manifest lists it (`"."`) or as tags of its own name
        // show; a private root, or one no release names, is the workspace's tooling only.
        if let object = npmRoot, !npmGlobs.isEmpty, !isPrivate(object), object["version"] is String,
            let name = object["name"] as? String, !name.isEmpty,
            releasePleaseListsRoot(root) || ownTagCount(names: [name, unscoped(name)], tags: tags) >= 3
        {
            globs.append(".")
        }
        globs += npmGlobs
        // covector releasing the root's package beside the declared members (create-tauri-app's
        // crate at `.`, its npm package `./node`): the root is a member, tagged by its own name.
        if !globs.isEmpty, !globs.contains("."), covectorPackages(root: root).contains(where: { $0.folder.isEmpty }),
            WorkspaceMembers.isMemberFolder(root, "")
        {
            globs.insert(".", at: 0)
        }
        if !WorkspaceMembers.folders(matching: ["charts/*"], root: root).isEmpty { globs.append("charts/*") }
        // A repository of charts in top-level folders (kedacore/charts: `keda/`, `http-add-on/`,
        // `external-scaler-azure-cosmos-db/`), none at the root: each folder is a member.
        if !FileSystem.exists(root.appendingPathComponent(HelmChartFile.name)) {
            let charts = ((try? FileSystem.names(in: root)) ?? []).sorted().filter { name in
                !name.hasPrefix(".") && FileSystem.isDirectory(root.appendingPathComponent(name))
                    && FileSystem.exists(root.appendingPathComponent(name).appendingPathComponent(HelmChartFile.name))
            }
            if charts.count >= 2 { globs += charts }
        }
        // A repository of packages no package manager declares together (kiota-python's eight
        // Poetry projects under `packages/`), which release-please releases each on its own
        // (`release-please-config.json` `packages`, tagged `microsoft-kiota-abstractions-v1.11.3`):
        // its listed folders are the members. Not Go modules, which their own reading finds.
        if globs.isEmpty {
            let listed = releasePleaseNames(root: root).keys.filter { folder in
                !folder.isEmpty && !FileSystem.exists(root.appendingPathComponent(folder).appendingPathComponent("go.mod"))
                    && WorkspaceMembers.isMemberFolder(root, folder)
            }
            if listed.count >= 2 { globs += listed.sorted() }
        }
        var seen: Set<String> = []
        globs = globs.map(normalized).filter { seen.insert($0).inserted }
        return (globs.filter { !$0.hasPrefix("!") }, globs.filter { $0.hasPrefix("!") }.map { String($0.dropFirst()) })
    }

    /// `./packages/*` and `packages/*/` as `[workspace]` writes them: `packages/*`; the root as `.`.
    private static func normalized(_ glob: String) -> String {
        var text = Substring(glob.trimmingCharacters(in: .whitespaces))
        let negated = text.first == "!"
        if negated { text = text.dropFirst() }
        while text.hasPrefix("./") { text = text.dropFirst(2) }
        while text.count > 1 && text.hasSuffix("/") { text = text.dropLast() }
        if text.isEmpty { text = "." }
        return (negated ? "!" : "") + text
    }

    /// `pnpm-workspace.yaml`'s `packages` list, block (`- 'packages/*'`) or flow (`['a/*']`) style.
    package static func pnpmPackages(root: URL) -> [String] {
        guard let text = try? ProjectFile.open("pnpm-workspace.yaml", in: root).text() else { return [] }
        return PlainYAML.topLevelList("packages", in: text)
    }

    /// The member folders `globs` give, less those an excluded glob matches, each once, sorted.
    package static func folders(root: URL, members: [String], excluded: [String]) -> [String] {
        WorkspaceMembers.folders(matching: members, root: root).filter { folder in
            !excluded.contains { matchesPath($0, folder) }
        }
    }

    /// Every member, read once: name, full package name, version and whether it is published.
    package static func members(root: URL, folders: [String]) -> [DiscoveredMember] {
        // A package release-please releases whose folder holds no manifest (formatjs builds
        // `packages/cli`'s package.json with Bazel, its version in BUILD.bazel) is named by the
        // config's `package-name` or `component`, as its tags name it (`@formatjs/cli@6.16.12`).
        let releasePlease = releasePleaseNames(root: root)
        let released = releaseNames(root: root)
        return folders.map { folder in
            let url = folder.isEmpty ? root : root.appendingPathComponent(folder)
            let name = WorkspaceMembers.detectedName(url, folder)
            let version = WorkspaceMembers.detectedVersions(url).lazy.compactMap { source in
                try? ManifestReaders.read(source, root: url).text
            }.first
            let full = npmManifest(url)?["name"] as? String ?? (version == nil ? releasePlease[folder] : nil)
            return DiscoveredMember(
                folder: folder, name: name, packageName: full.flatMap { $0 == name ? nil : $0 }, version: version,
                unpublished: isUnpublished(url),
                releaseName: (released[folder] ?? releasePlease[folder]).flatMap { $0 == name || $0 == full ? nil : $0 })
        }
    }

    /// The names knope and covector give the package in each folder, where one package a folder
    /// is named: knope.toml's `[packages.versioning]` versioned by
    /// `crates/knope-versioning/Cargo.toml`; covector's `.changes/config.json` `packages`
    /// (create-tauri-app's `"create-tauri-app-js": {"path": "./node"}`, tagged
    /// `create-tauri-app-js-v4.5.2`). A folder two packages share (tauri's plugins, a crate and its
    /// `-js` package in one folder) gets none.
    static func releaseNames(root: URL) -> [String: String] {
        var names: [String: String] = [:]
        var shared: Set<String> = []
        func name(_ folder: String, _ name: String) {
            if let other = names[folder], other != name { shared.insert(folder) } else { names[folder] = name }
        }
        for (package, folders) in ChangeFragments.knopePackages(in: root) ?? [:] where package != "default" && folders.count == 1 {
            name(folders.first!, package)
        }
        for (package, folder) in covectorPackages(root: root) { name(folder, package) }
        return names.filter { !shared.contains($0.key) }
    }

    /// covector's packages (`.changes/config.json` `packages`: name and `path`), each folder
    /// relative to the root (`""` for `.`), at most 500.
    static func covectorPackages(root: URL) -> [(name: String, folder: String)] {
        guard let file = try? ProjectFile.open(".changes/config.json", in: root), file.isRegularFile,
            case .whole(let data)? = file.data(limit: 1 << 20),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let packages = object["packages"] as? [String: Any]
        else { return [] }
        return packages.sorted(by: { $0.key < $1.key }).prefix(500).compactMap { name, value in
            guard let path = (value as? [String: Any])?["path"] as? String else { return nil }
            let parts = path.split(separator: "/").map(String.init).filter { $0 != "." }
            guard !path.hasPrefix("/"), !parts.contains("..") else { return nil }
            return (name, parts.joined(separator: "/"))
        }.sorted { $0.name < $1.name }
    }

    /// The package names `release-please-config.json` gives its packages' folders (`package-name`,
    /// else `component`), by folder.
    /// With `componentFirst`, the `component` before the `package-name`: the name release-please's
    /// plugins (`linked-versions`) list a package by.
    static func releasePleaseNames(root: URL, componentFirst: Bool = false) -> [String: String] {
        guard let object = StarterConfig.releasePleaseObject(StarterConfig.releasePleaseConfig, root: root),
            let packages = object["packages"] as? [String: Any]
        else { return [:] }
        var names: [String: String] = [:]
        for (folder, value) in packages {
            guard let entry = value as? [String: Any],
                let name =
                    componentFirst
                    ? (entry["component"] as? String) ?? (entry["package-name"] as? String)
                    : (entry["package-name"] as? String) ?? (entry["component"] as? String), !name.isEmpty
            else { continue }
            var key = folder
            while key.hasPrefix("./") { key.removeFirst(2) }
            while key.hasSuffix("/") { key.removeLast() }
            // Only folders inside the repository, spelled plainly.
            guard !key.hasPrefix("/"), !key.split(separator: "/").contains("..") else { continue }
            names[key == "." ? "" : key] = name
        }
        return names
    }

    /// Whether the package in `folder` says it is never published: Cargo's `publish = false`
    /// (or an empty registry list) or no `version`, npm's `"private": true`.
    /// Whether a crate's name starts three tags or more (`env_filter-v2.0.0`, `name-1.2.3`).
    static func hasOwnTags(_ folder: URL, tags: [String]) -> Bool {
        guard let document = try? TOMLDocument(file: ProjectFile.open("Cargo.toml", in: folder)),
            let name = document.root["package"]?.table?["name"]?.string, !name.isEmpty
        else { return false }
        return ownTagCount(names: [name], tags: tags) >= 3
    }

    /// The tags naming a release of a package called one of `names`: the name, a separator
    /// (`-`, `_`, `@`, `/`), an optional `v` and a number (`env_filter-v2.0.0`, `sdk-v0.120.0`,
    /// `@scope/name@1.2.0`).
    static func ownTagCount(names: [String], tags: [String]) -> Int {
        let names = Set(names.filter { !$0.isEmpty })
        return tags.count { tag in
            names.contains { name in
                guard tag.hasPrefix(name) else { return false }
                var rest = tag.dropFirst(name.count)
                guard let separator = rest.first, "-_@/".contains(separator) else { return false }
                rest = rest.dropFirst()
                if rest.first == "v" { rest = rest.dropFirst() }
                return rest.first?.isNumber == true
            }
        }
    }

    /// `sdk` of `@anthropic-ai/sdk`.
    private static func unscoped(_ name: String) -> String {
        name.hasPrefix("@") ? name.split(separator: "/", maxSplits: 1).last.map(String.init) ?? name : name
    }

    /// Whether release-please's `.release-please-manifest.json` holds a version for the root
    /// (`".": "0.120.0"`): release-please releases the root package as one of the manifest's.
    static func releasePleaseListsRoot(_ root: URL) -> Bool {
        guard let file = try? ProjectFile.open(".release-please-manifest.json", in: root), file.isRegularFile,
            case .whole(let data)? = file.data(limit: 1 << 20),
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return false }
        return object["."] is String
    }

    package static func isUnpublished(_ folder: URL) -> Bool {
        if let document = try? TOMLDocument(file: ProjectFile.open("Cargo.toml", in: folder)),
            let package = document.root["package"]?.table
        {
            if let publish = package["publish"], publish.bool == false || publish.array?.isEmpty == true { return true }
            // Since Cargo 1.75 a package without `version` is 0.0.0 and never published (tonic's
            // `codegen` and `interop`); `version.workspace = true` is a version.
            if package["version"] == nil { return true }
        }
        // pub never publishes a package with `publish_to: none` (flame's examples and its
        // workspace root), nor one without a version.
        if let pubspec = Pubspec.read(in: folder), pubspec.publishedNowhere || pubspec.version == nil { return true }
        if let object = npmManifest(folder) {
            if isPrivate(object) { return true }
            // npm publishes no package without a version: redux-toolkit's docusaurus `website` and
            // `docs` folders (unless another manifest beside it holds the folder's version).
            if object["version"] == nil,
                !["Cargo.toml", "pyproject.toml", "go.mod", "Chart.yaml", "Package.swift", "VERSION"].contains(where: {
                    FileSystem.exists(folder.appendingPathComponent($0))
                })
            {
                return true
            }
        }
        return false
    }

    private static func npmManifest(_ folder: URL) -> [String: Any]? {
        guard let data = (try? ProjectFile.open("package.json", in: folder))?.data() else {
            return nil
        }
        return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    }

    /// A relative path against a glob whose `**` spans any number of folders (pnpm's `!**/test/**`).
    package static func matchesPath(_ glob: String, _ path: String) -> Bool {
        func match(_ pattern: ArraySlice<String>, _ parts: ArraySlice<String>) -> Bool {
            guard let first = pattern.first else { return parts.isEmpty }
            if first == "**" {
                return (parts.startIndex...parts.endIndex).contains { match(pattern.dropFirst(), parts[$0...]) }
            }
            guard let part = parts.first, Glob.matches(first, part) else { return false }
            return match(pattern.dropFirst(), parts.dropFirst())
        }
        let pattern = normalized(glob).split(separator: "/").map(String.init)
        return match(pattern[...], path.split(separator: "/").map(String.init)[...])
    }
}

/// The tag series of a workspace's members, read from the repository's tags: each member's
/// format comes from its own tags (`binstalk-v0.28.80`, `@sveltejs/kit@2.2.0`), the one most
/// members use becomes `[workspace] tag-format`, and the others are listed by name. The
/// repository's bare series (`v1.22.0`) belongs to the member whose manifest holds its latest
/// version (a release-plz workspace's application). One odd tag only ever names its own member.
extension MemberDiscovery {
    /// npm's `"private": true`, or the string `"true"` npm reads the same way (Chart.js' docs).
    package static func isPrivate(_ packageJSON: [String: Any]) -> Bool {
        if let flag = packageJSON["private"] as? Bool { return flag }
        return (packageJSON["private"] as? String)?.lowercased() == "true"
    }
}

package struct MemberTagSeries: Equatable {
    /// `[workspace] tag-format`, with `{member}`.
    package var format: String
    /// `[workspace.tag-formats]`: member name → its format, where it is not `format`.
    package var exceptions: [(name: String, format: String)]
    /// A member's tag, for the reason init gives.
    package var example: String
    /// The member the bare series belongs to, and one of its tags.
    package var bare: (name: String, tag: String)?
    /// Folders whose own tag series releases the untagged members below them together
    /// (`folderLines`), with those members' names.
    package var folderLines: [(folder: String, members: [String])] = []

    package static func == (a: MemberTagSeries, b: MemberTagSeries) -> Bool {
        a.format == b.format && a.example == b.example && a.bare?.name == b.bare?.name
            && a.exceptions.map(\.name) == b.exceptions.map(\.name)
            && a.exceptions.map(\.format) == b.exceptions.map(\.format)
            && a.folderLines.map { [$0.folder] + $0.members } == b.folderLines.map { [$0.folder] + $0.members }
    }

    /// Tag series named after a folder, not a member (`experimental/v0.212.0`), whose latest final
    /// most of the published untagged members below that folder hold, two at least: a line those
    /// members are released on together (opentelemetry-js' `experimental/packages/*`). Each with
    /// the series' format and the members' names; a series needs three tags.
    static func folderLines(
        untagged: [DiscoveredMember], tags: [String], named: Set<String>
    ) -> [(folder: String, format: String, members: [String])] {
        var series: [String: [TagHistory.Release]] = [:]
        for tag in tags where !named.contains(tag) {
            guard let slash = tag.firstIndex(of: "/"), slash != tag.startIndex else { continue }
            let folder = String(tag[..<slash])
            guard let release = TagHistory.release(in: tag, project: folder),
                release.prefix == folder + "/v" || release.prefix == folder + "/"
            else { continue }
            series[folder, default: []].append(release)
        }
        var lines: [(folder: String, format: String, members: [String])] = []
        for (folder, releases) in series.sorted(by: { $0.key < $1.key }) where releases.count >= 3 {
            guard let latest = releases.filter({ !$0.version.isPrerelease }).max(by: { $0.version < $1.version }) else {
                continue
            }
            let below = untagged.filter {
                $0.folder.hasPrefix(folder + "/") && !$0.unpublished && !StarterConfig.isFixture($0.folder)
            }
            let holding = below.filter { member in
                member.version.flatMap { try? SemanticVersion(parsing: $0) }?.hasSamePrecedence(as: latest.version) ?? false
            }
            guard holding.count >= 2, holding.count * 2 > below.count else { continue }
            lines.append((folder, latest.prefix + "{version}", holding.map(\.name)))
        }
        return lines
    }

    /// Nil when no tag names a member, or when the history moved on from the stray tags that do
    /// (fewer than three a member): `TagHistory.staleAfter` bare releases made after the newest of
    /// them (`dates`, when each tag was made). babel's one stray `@babel/core@7.23.2` of 2023, before 900 `v8.0.4`-like tags,
    /// made init write 156 separately tagged members.
    /// A lockstep line that left member tags for one bare series: tiptap tagged every package
    /// (`@tiptap/core@3.0.0-next.3`) until it switched to one `v3.x.y` a release (270 since), every
    /// package at that version. The member series are stale when `TagHistory.staleAfter` bare releases
    /// were made after the newest member tag and every tagged member's manifest holds the latest
    /// bare release or is private now. A member that keeps a line of its own (redux-toolkit's
    /// codegen, at its own version beside the toolkit's `v2.x`) holds another version, and keeps
    /// its series.
    static func movedToOneSeries(
        own: [(member: DiscoveredMember, tags: [String])], named: Set<String>, tags: [String], dates: [String: Int]
    ) -> Bool {
        guard !own.isEmpty, let newestNamed = named.compactMap({ dates[$0] }).max(), newestNamed > 0 else {
            return false
        }
        var after: [SemanticVersion] = []
        for tag in tags where !named.contains(tag) && (dates[tag] ?? 0) > newestNamed {
            guard let release = TagHistory.release(in: tag, project: ""), TagHistory.isGeneric(release.prefix) else {
                continue
            }
            after.append(release.version)
        }
        guard after.count >= TagHistory.staleAfter,
            let latest = after.filter({ !$0.isPrerelease }).max() ?? after.max()
        else { return false }
        // A member no release publishes any more (nuxt's `@nuxt/ui-templates`, private since its
        // last tag of 2024) says nothing of the line.
        guard own.contains(where: { !$0.member.unpublished }) || own.count >= 2 else { return true }
        return own.allSatisfy { entry in
            entry.member.unpublished
                || entry.member.version.flatMap { try? SemanticVersion(parsing: $0) }.map { $0.hasSamePrecedence(as: latest) }
                    ?? false
        }
    }

    package static func read(
        members: [DiscoveredMember], tags: [String], dates: [String: Int] = [:], commits: [String: String] = [:]
    ) -> MemberTagSeries? {
        var own: [(member: DiscoveredMember, format: String, tags: [String])] = []
        var named: Set<String> = []
        var namedVersions: [String: SemanticVersion] = [:]
        // Only a tag starting with a member's name can be that member's: the others are not parsed
        // (pnpm: 150 members and 2,000 tags, every pair a version parse, 14 s of CPU).
        let lowered = tags.map { $0.lowercased() }
        let shortNames = shortNames(of: members)
        let otherSpellings = otherSpellings(of: members)
        for member in members {
            let aliases =
                (member.packageName.map { [$0] } ?? []) + (member.releaseName.map { [$0] } ?? [])
                + (shortNames[member.folder].map { [$0] } ?? [])
                + (otherSpellings[member.folder] ?? [])
            let names = [member.name] + aliases
            let prefixes = names.filter { !$0.isEmpty }.map { $0.lowercased() }
            var mine: [String] = []
            // (Longer than the prefix: `hasPrefix` and not equal, not `count`, which walks every
            // character of every tag once per member: a sixth of astro's init.)
            for (tag, lower) in zip(tags, lowered) where prefixes.contains(where: { lower.hasPrefix($0) && lower != $0 }) {
                guard
                    let release = names.lazy.compactMap({ TagHistory.release(in: tag, project: $0) })
                        .first(where: { !TagHistory.isGeneric($0.prefix) })
                else { continue }
                mine.append(tag)
                namedVersions[tag] = release.version
            }
            named.formUnion(mine)
            guard !mine.isEmpty else { continue }
            let spelled = TagHistory(tags: mine, project: member.name, aliases: aliases).format
            own.append((member, generic(spelled, member: member), mine))
        }
        guard !own.isEmpty else { return nil }
        // A member releasing rarely keeps its series (redux-toolkit's 14 `@rtk-query/codegen-openapi@`
        // tags, then 11 `v2.x` of the toolkit): only stray tags, a member's one or two, go stale.
        if own.allSatisfy({ $0.tags.count < 3 }), let newestNamed = named.compactMap({ dates[$0] }).max(), newestNamed > 0 {
            let bareAfter = tags.lazy.filter { tag in
                !named.contains(tag) && (dates[tag] ?? 0) > newestNamed
                    && TagHistory.release(in: tag, project: "").map { TagHistory.isGeneric($0.prefix) } == true
            }
            if bareAfter.count >= TagHistory.staleAfter { return nil }
        }
        if movedToOneSeries(own: own.map { ($0.member, $0.tags) }, named: named, tags: tags, dates: dates) {
            return nil
        }
        if twinsTheBareSeries(named: namedVersions, tags: tags, commits: commits) { return nil }
        // The format most tagged members use; a tie goes to the one sorting first, so the same tags
        // always give the same file.
        var votes: [String: Int] = [:]
        for entry in own where entry.format.contains("{member}") { votes[entry.format, default: 0] += 1 }
        let format =
            votes.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.first?.key
            ?? WorkspaceSettings.defaultTagFormat
        var exceptions: [(String, String)] = []
        for entry in own where entry.format != format {
            exceptions.append(
                (entry.member.name, entry.format.replacingOccurrences(of: "{member}", with: entry.member.name)))
        }
        // An untagged npm member outside the scope the format spells (`create-svelte` beside
        // `@sveltejs/{member}@{version}`; socket.io's `@socket.io/component-emitter` beside
        // `{member}@{version}`) is tagged by its own package name, as changesets tags it.
        let untagged = members.filter { member in !own.contains { $0.member.folder == member.folder } }
        if let range = format.range(of: "{member}"),
            format[..<range.lowerBound].hasSuffix("/") || format[..<range.lowerBound].isEmpty
        {
            let scope = String(format[..<range.lowerBound])
            // Not a namesake of a tagged member (a private npm wrapper of a crate): the entry,
            // keyed by name, would be the tagged member's format too.
            let taggedNames = Set(own.map(\.member.name))
            for member in untagged
            where (member.packageName ?? member.name) != scope + member.name && !taggedNames.contains(member.name)
                && (!scope.isEmpty || member.packageName.map { $0.hasPrefix("@") && $0.hasSuffix("/" + member.name) } == true)
            {
                exceptions.append((member.name, (member.packageName ?? member.name) + format[range.upperBound...]))
            }
        }
        let lines = folderLines(untagged: untagged, tags: tags, named: named)
        for line in lines {
            exceptions.removeAll { line.members.contains($0.0) }
            exceptions.append(contentsOf: line.members.map { ($0, line.format) })
        }
        // The bare series (`v1.22.0`): tags naming no member, read as the repository's own releases.
        let bareTags = tags.filter { tag in
            !named.contains(tag)
                && TagHistory.release(in: tag, project: "").map { TagHistory.isGeneric($0.prefix) } == true
        }
        var bare: (name: String, tag: String)?
        let bareReleases = bareTags.compactMap { tag in
            TagHistory.release(in: tag, project: "").map { (tag, $0.version) }
        }
        // The member holding the latest final, or the prerelease tagged after it (vite's
        // packages/vite holds `8.1.0-beta.0`, tagged `v8.1.0-beta.0` above `v8.0.16`).
        let candidates = [
            bareReleases.filter { !$0.1.isPrerelease }.max(by: { $0.1 < $1.1 }),
            bareReleases.max(by: { $0.1 < $1.1 }).flatMap { $0.1.isPrerelease ? $0 : nil },
        ].compactMap { $0 }
        // Else the member holding the highest version the series released, when only one holds
        // it: on a maintenance branch (vite's `v6.2`, packages/vite at 6.2.6) the newest tags
        // are main's, and test apps hold `1.0.0`s the series released long ago.
        // A member with a few tags of its own whose series stopped below the version it holds
        // (regex's one `regex-1.3.7` of 2020, the crate at 1.13.1 tagged `1.13.1`) may own it too.
        // The versions as the member's own tags were read, under any of its names (watchexec's
        // `watchexec-cli` tagged `cli-v1.20.6`: by its package name alone it had none, so the bare
        // series its manifest's 2.3.3 continues was not given to it).
        func ownLatest(_ member: DiscoveredMember) -> SemanticVersion? {
            guard let entry = own.first(where: { $0.member.folder == member.folder }) else { return nil }
            return entry.tags.compactMap { namedVersions[$0] }.max()
        }
        /// `publishedOnly`: for the weakest reading, a member holding an old release of the series;
        /// an unpublished crate at such a version (tonic's `tonic-protobuf` at 0.14.0, the old
        /// lockstep tag) is not the project the series releases.
        func owner(
            holdingOneOf releases: [(String, SemanticVersion)], publishedOnly: Bool = false
        ) -> (DiscoveredMember, String)? {
            var found: [(member: DiscoveredMember, tag: String, version: SemanticVersion)] = []
            // An example app (tauri's `examples/file-associations` at 1.0.0) never owns the series,
            // nor does a placeholder `0.0.0` (crossbeam's benchmarks crate beside a `v0.0.0` tag).
            for member in members where !StarterConfig.isFixture(member.folder) && !(publishedOnly && member.unpublished) {
                guard let held = member.version.flatMap({ try? SemanticVersion(parsing: $0) }),
                    held != SemanticVersion(major: 0, minor: 0, patch: 0),
                    let release = releases.first(where: { held.hasSamePrecedence(as: $0.1) })
                else { continue }
                let tagged = !untagged.contains { $0.folder == member.folder }
                if tagged, let latest = ownLatest(member), !(latest < release.1) { continue }
                if tagged, ownLatest(member) == nil { continue }
                if publishedOnly, let made = dates[release.0], made > 0 {
                    // An old release of the series that a member's version only happens to equal
                    // is not the member's: lit's labs/compiler at 1.1.2, tagged
                    // `@lit-labs/compiler@1.1.1` in 2025, against lit-html's `v1.1.2` of 2019;
                    // socket.io's untagged component-emitter at 3.1.2, socket.io's own tag of 2021,
                    // three years before the series' newest.
                    let ownNewest = own.first { $0.member.folder == member.folder }?.tags.compactMap { dates[$0] }.max()
                    let seriesNewest = releases.compactMap { dates[$0.0] }.max() ?? made
                    if let ownNewest, ownNewest > made { continue }
                    if seriesNewest - made > TagHistory.movedOnAfter { continue }
                }
                if publishedOnly {
                    // Another member's own tag names that version: the bare tag was its release
                    // (solid tags `v1.9.2` beside `solid-js@1.9.2`; solid-element only holds 1.9.2 now).
                    let anothers = own.contains { entry in
                        entry.member.folder != member.folder
                            && entry.tags.contains { namedVersions[$0]?.hasSamePrecedence(as: release.1) ?? false }
                    }
                    if anothers { continue }
                }
                found.append((member, release.0, release.1))
            }
            guard let highest = found.map(\.version).max() else { return nil }
            let top = found.filter { $0.version.hasSamePrecedence(as: highest) }
            let chosen = top.count == 1 ? top[0] : top.first { $0.member.folder.isEmpty }
            return chosen.map { ($0.member, $0.tag) }
        }
        // Else the member holding the series' next version, the release being prepared (rand's
        // root crate at 0.8.5 after the tag 0.8.4; rustls at 0.24.0-dev.1 after v/0.23.43): the one
        // member doing so, or the root among several. Before the reading of an old release, which
        // gave rand's bare series to rand_core (at 0.6.4, a version rand once tagged).
        func continuing(_ latest: (String, SemanticVersion)) -> DiscoveredMember? {
            let base = latest.1.final
            var steps = [base, base, base]
            steps[0].patch = SemanticVersion.increment(base.patch)
            (steps[1].minor, steps[1].patch) = (SemanticVersion.increment(base.minor), "0")
            (steps[2].major, steps[2].minor, steps[2].patch) = (SemanticVersion.increment(base.major), "0", "0")
            func holding(_ accepts: (SemanticVersion) -> Bool) -> [DiscoveredMember] {
                members.filter { member in
                    guard !StarterConfig.isFixture(member.folder),
                        !own.contains(where: { $0.member.folder == member.folder }),
                        let held = member.version.flatMap({ try? SemanticVersion(parsing: $0) })
                    else { return false }
                    return accepts(held.final)
                }
            }
            let next = holding { held in steps.contains { $0.hasSamePrecedence(as: held) } }
            if let found = next.count == 1 ? next[0] : next.first(where: { $0.folder.isEmpty }) { return found }
            // Further up the same minor line, past patches published without a tag (rust-url's
            // `url` at 2.5.7 after the tag v2.5.5; 2.5.6 went to crates.io untagged): the one
            // member there.
            let line = holding { held in held.major == base.major && held.minor == base.minor && base < held }
            return line.count == 1 ? line[0] : nil
        }
        // A member whose own tags took over from the bare series (solid's `solid-js@1.9.15` after
        // 358 `v` tags up to v1.9.13) released it under its old spelling: no other member holding an
        // old version of it (solid-element at 1.9.2) owns it.
        let bareNewest = bareTags.compactMap { dates[$0] }.max() ?? 0
        let continuedElsewhere = own.contains { entry in
            guard let latest = candidates.first, let mine = ownLatest(entry.member), latest.1 < mine, bareNewest > 0,
                let first = entry.tags.compactMap({ dates[$0] }).min()
            else { return false }
            return first > bareNewest
        }
        if let latest = candidates.first,
            let (member, tag) = owner(holdingOneOf: candidates).map({ ($0.0, latest.0) })
                ?? continuing(latest).map({ ($0, latest.0) })
                ?? (continuedElsewhere ? nil : owner(holdingOneOf: bareReleases, publishedOnly: true))
        {
            let spelled = TagHistory(tags: bareTags, project: "").format
            exceptions.removeAll { $0.0 == member.name }
            exceptions.append((member.name, spelled))
            bare = (member.name, tag)
        }
        exceptions.sort { $0.0 < $1.0 }
        return MemberTagSeries(
            format: format, exceptions: exceptions, example: own.map { $0.tags.sorted()[0] }.sorted()[0], bare: bare,
            folderLines: lines.map { ($0.folder, $0.members.filter { $0 != bare?.name }) })
    }

    /// A member's own format said for any member: `{project}-v{version}` → `{member}-v{version}`,
    /// `@sveltejs/kit@{version}` → `@sveltejs/{member}@{version}`.
    /// (Nearly) every member tag twins a bare one, of the same version on the same commit, and the bare
    /// series is the longer: minijinja tags its lockstep workspace `2.24.0` and, on the same
    /// commit, its Go module `minijinja-go/v2.24.0` (Go requires that spelling) since 2.15.0. The
    /// bare series is the repository's release, not one member's series among others.
    /// Finals are compared: a prerelease is spelled per ecosystem (jupyter notebook's Python
    /// `v7.0.0a1` beside its npm packages' `@jupyter-notebook/app@7.0.0-alpha.1`). Each release
    /// counts once however many members it tags: notebook tags its fourteen npm packages at every
    /// `v7.5.1`-like release, 390 member tags on 31 of its 111 bare releases.
    static func twinsTheBareSeries(named: [String: SemanticVersion], tags: [String], commits: [String: String]) -> Bool {
        guard !named.isEmpty, !commits.isEmpty else { return false }
        var bare: Set<String> = []
        for tag in tags where named[tag] == nil {
            guard let release = TagHistory.release(in: tag, project: ""), TagHistory.isGeneric(release.prefix),
                !release.version.isPrerelease, let commit = commits[tag]
            else { continue }
            bare.insert("\(commit) \(release.version)")
        }
        let finals = named.filter { !$0.value.isPrerelease }
        let releases = Set(finals.compactMap { tag, version in commits[tag].map { "\($0) \(version)" } })
        guard bare.count > releases.count else { return false }
        let twins = finals.filter { tag, version in commits[tag].map { bare.contains("\($0) \(version)") } ?? false }.count
        // Nearly all: minijinja's first Go tag, `minijinja-go/v2.15.0`, sits on a fix-up commit after `2.15.0`.
        return twins >= 3 && twins * 5 >= finals.count * 4
    }

    /// The names members' tags may spell without the first word most of them share, by folder:
    /// actix-web's crates `actix-web` and `actix-http` are tagged `web-v4.15.0` and `http-v3.13.3`.
    /// Only a word two members or more start with, and only a short name that no other member is
    /// called or shortens to, so a tag never reads as two members' release.
    static func shortNames(of members: [DiscoveredMember]) -> [String: String] {
        func split(_ name: String) -> (word: Substring, rest: Substring)? {
            guard let separator = name.firstIndex(where: { $0 == "-" || $0 == "_" }) else { return nil }
            let rest = name[name.index(after: separator)...]
            guard !rest.isEmpty, rest.first?.isLetter == true else { return nil }
            return (name[..<separator], rest)
        }
        var words: [Substring: Int] = [:]
        for member in members { if let word = split(member.name)?.word { words[word, default: 0] += 1 } }
        var candidates: [String: String] = [:]
        var seen: [String: Int] = [:]
        for member in members {
            guard let (word, rest) = split(member.name), words[word, default: 0] >= 2 else { continue }
            candidates[member.folder] = String(rest)
            seen[String(rest).lowercased(), default: 0] += 1
        }
        let taken = takenNames(of: members)
        return candidates.filter { seen[$0.value.lowercased()] == 1 && !taken.contains($0.value.lowercased()) }
    }

    /// Every member's name and package name, lowercased: what no short name or other spelling may be.
    private static func takenNames(of members: [DiscoveredMember]) -> Set<String> {
        Set(members.flatMap { [$0.name.lowercased()] + ($0.packageName.map { [$0.lowercased()] } ?? []) })
    }

    /// Each member's name with `_` spelled `-` and the other way round, where that differs from it
    /// and names no other member: aws-lambda-rust-runtime's crate `lambda_runtime` lives in
    /// `lambda-runtime/` and is tagged `lambda-runtime-0.11.1`, as Cargo and crates.io hold both
    /// spellings one name. (init found no release of any crate so named: 0 of 20 points.)
    static func otherSpellings(of members: [DiscoveredMember]) -> [String: [String]] {
        let taken = takenNames(of: members)
        var spellings: [String: [String]] = [:]
        var seen: [String: Int] = [:]
        for member in members {
            let variants = Set([
                member.name.replacingOccurrences(of: "_", with: "-"), member.name.replacingOccurrences(of: "-", with: "_"),
            ]).subtracting([member.name]).filter { !taken.contains($0.lowercased()) }.sorted()
            guard !variants.isEmpty else { continue }
            spellings[member.folder] = variants
            for variant in variants { seen[variant.lowercased(), default: 0] += 1 }
        }
        return spellings.compactMapValues { variants in
            let own = variants.filter { seen[$0.lowercased()] == 1 }
            return own.isEmpty ? nil : own
        }
    }

    private static func generic(_ format: String, member: DiscoveredMember) -> String {
        if format.hasPrefix("{project}") { return "{member}" + format.dropFirst("{project}".count) }
        if let full = member.packageName, full.hasSuffix("/" + member.name), format.hasPrefix(full) {
            return full.dropLast(member.name.count) + "{member}" + format.dropFirst(full.count)
        }
        if format.hasPrefix(member.name) { return "{member}" + format.dropFirst(member.name.count) }
        return format
    }
}
