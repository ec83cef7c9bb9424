import Foundation
import RelctlBasics
import RelctlChanges
import RelctlModel

/// `relctl init`: a commented starter `relctl.toml` built from the repository as it is: the tag
/// format its tags already use, the manifests that really hold a version, the binaries the
/// build really produces and the ecosystem's own build command. A project that produces no
/// binary (a library) gets a tag-only configuration: versions, notes and tags, no `[[target]]`.
public enum StarterConfig {
    /// Manifest files relctl recognises at the project root, in the order they are listed.
    package static let detectable = [
        "Cargo.toml", "package.json", "pyproject.toml", "Package.swift", "go.mod", "VERSION",
    ]

    /// Writes the starter file; exit 2 if one already exists (it is never overwritten).
    /// The project's TOML files are parsed once (`TOMLReadCache`): nothing writes them here.
    @discardableResult
    public static func write(
        path: String?, context: Context
    ) async throws -> (url: URL, detected: [String], warnings: [String]) {
        try await TOMLReadCache.$current.withValue(TOMLReadCache()) {
            try await writeReadingOnce(path: path, context: context)
        }
    }

    private static func writeReadingOnce(
        path: String?, context: Context
    ) async throws -> (url: URL, detected: [String], warnings: [String]) {
        let url = context.resolve(path ?? ConfigLoader.defaultFileName)
        if FileSystem.exists(url) {
            throw ConfigError.alreadyExists(path: path ?? ConfigLoader.defaultFileName)
        }
        let root = url.deletingLastPathComponent()
        let detected = detectable.filter {
            FileSystem.exists(atPath: root.appendingPathComponent($0).path)
        }
        var git = Git(directory: root, context: context)
        // init moves no ref: the readers below share their answers (which tags HEAD lacks, asked
        // by the tag history, the versioning and each workspace reader).
        git.memo = GitQueryMemo()
        let isRepository = await (try? git.isRepository()) == true
        let tags = isRepository ? ((try? await git.tagList()) ?? []) : []
        let remote = isRepository ? await git.configuredRemoteURL("origin") : nil
        let repository = repositoryName(remote: remote, root: root)
        let outOfLine = tags.isEmpty ? [] : ((try? await git.tagNames(notMergedInto: "HEAD")) ?? [])
        let found = findings(root: root, detected: detected, tags: tags, repository: repository, outOfLine: outOfLine)
        // Each member of a workspace has its own tag series: a cadence is read for a single project.
        let format =
            found.workspace?.active == true
            ? nil : try? TagFormat(found.tagFormat, project: found.name, scheme: found.versionScheme)
        var versioning = await VersioningDetection.detect(
            root: root, git: isRepository ? git : nil, tags: tags, format: format,
            cargo: detected.contains("Cargo.toml"), project: found.name)
        // A workspace's members release on their own: Cargo's 0.x rule and a maintenance line
        // are read from their tag series.
        if let offer = found.workspace, offer.active, isRepository {
            let declared = MemberDiscovery.declaredGlobs(root: root, detected: detected, tags: tags.map(\.name))
            let members = MemberDiscovery.members(
                root: root,
                folders: MemberDiscovery.folders(root: root, members: declared.members, excluded: declared.excluded)
            ).map { member in
                let own = offer.tagFormats.first { $0.name == member.name }?.format
                return (
                    name: member.name, folder: member.folder,
                    tagFormat: own ?? offer.tagFormat.replacingOccurrences(of: "{member}", with: member.name)
                )
            }
            // Any workspace's members, as for a single project (VersioningDetection.detect).
            let cargo = detected.contains("Cargo.toml")
            if versioning.fragments?.kind == .knope {
                // knope's rule for every package below 1.0.0, whatever each member's history shows.
                versioning.zeroMajor = (.cargo, VersioningDetection.knopeZeroMajor)
            } else if let releasePlease = VersioningDetection.releasePleaseZeroMajor(root: root) {
                versioning.zeroMajor = (.cargo, releasePlease)
            } else if let releasePlz = cargo ? VersioningDetection.releasePlzZeroMajor(root: root) : nil {
                let overruled = await VersioningDetection.workspaceFeatsReleasedAsMinors(
                    members: members.map { ($0.folder, $0.tagFormat) }, tags: tags, git: git)
                versioning.zeroMajor = overruled ? nil : (.cargo, releasePlz)
            } else if !offer.calendar, versioning.fragments?.kind.decidesLevel != true {
                versioning.zeroMajor = await VersioningDetection.workspaceZeroMajor(
                    members: members.map { ($0.folder, $0.tagFormat) }, tags: tags, git: git, cargo: cargo
                ).map { (.cargo, $0) }
            }
            if versioning.changelog == nil, versioning.fragments?.kind.decidesLevel != true {
                versioning.changelog = VersioningDetection.workspaceChangelog(root: root, members: members, tags: tags)
            }
            versioning.memberMaintenance = await VersioningDetection.workspaceMaintenance(
                members: members, tags: tags, git: git)
        }
        // On a maintenance branch the line's latest release is what a Go constant names.
        var final =
            versioning.maintenance.map {
                findings(
                    root: root, detected: detected, tags: tags, repository: repository, within: $0.range,
                    outOfLine: outOfLine)
            } ?? found
        if isRepository, final.workspace?.active != true {
            await adoptReleaseCommitFiles(&final, root: root, git: git, tags: tags, within: versioning.maintenance?.range)
        }
        if final.workspace?.active != true { adoptBumpversionFiles(&final, root: root) }
        if isRepository { await dropLoweredGoMarkers(&final, root: root, git: git, tags: tags) }
        try AtomicFile.write(
            render(root: root, detected: detected, tags: tags, repository: repository, versioning: versioning, found: final),
            to: url)
        let named = Set(final.versions.map(\.path))
        return (url, detected, final.workspace?.active == true ? [] : unlocatedVersions(root: root, named: named, project: final.name))
    }

    /// The files the latest release commit wrote the version into beside the listed manifests
    /// (`ReleaseCommitFiles`), each holding the version the first listed manifest holds; with no
    /// manifest listed and a version the tag does not carry alone, each holding the latest
    /// release's version (sentry-python's `setup.py` `version="2.68.0"` and `sentry_sdk/consts.py`,
    /// which its release commit writes while pyproject.toml names no version).
    private static func adoptReleaseCommitFiles(
        _ found: inout Findings, root: URL, git: Git, tags: [GitTag], within range: VersionRange?
    ) async {
        guard let format = try? TagFormat(found.tagFormat, project: found.name, scheme: found.versionScheme) else {
            return
        }
        let history = ReleaseHistory(tags: tags, format: format)
        let finals = history.releases.filter { !$0.version.isPrerelease && (range?.contains($0.version) ?? true) }
        guard finals.count >= 2 else { return }
        let first = found.versions.first
        let held: String
        if let first {
            guard let text = versionHeld(first, root: root, unknownAs: "plain")?.text else { return }
            held = text
        } else {
            guard found.tagIsTheVersion == nil else { return }
            held = finals[0].version.description
        }
        guard let prefix = try? await git.prefixFromTop() else { return }
        // The release commit moves the files from the release before it on its line, which may not
        // be the highest before it: sentry-python's 2.68.0 from 2.67.0, with 2.67.1 made beside.
        var entries: [ReleaseCommitFiles.Entry] = []
        var previous = finals[1]
        for candidate in finals.dropFirst().prefix(3) {
            previous = candidate
            entries = await ReleaseCommitFiles.entries(
                root: root, git: git, prefix: prefix, latest: finals[0], previous: candidate, expected: held,
                listed: Set(found.versions.map(\.path)))
            if !entries.isEmpty { break }
        }
        for entry in entries
        where await ReleaseCommitFiles.heldEarlier(entry, releases: Array(finals.dropFirst().prefix(3)), git: git, prefix: prefix)
        {
            found.versions.append((entry.path, entry.kind, entry.pattern))
            found.versionNotes.append(
                "\(entry.path): the release commit of \(finals[0].tag) moved it from \(previous.version) to \(finals[0].version)"
                    + (first.map { " with \($0.path)." } ?? "."))
        }
    }

    /// A Go constant holding a development marker (`1.21.0-dev`) binds nothing where the project's
    /// releases lower it: uber-go/fx goes "back to development" at the next minor after each
    /// release, then releases patches (1.20.1 from `1.21.0-dev`), where nats-server's marker is
    /// main's next release. Read from the release commits of the latest five finals: a parent
    /// holding a marker above the release it made drops the entry.
    static func dropLoweredGoMarkers(_ found: inout Findings, root: URL, git: Git, tags: [GitTag]) async {
        guard let format = try? TagFormat(found.tagFormat, project: found.name, scheme: found.versionScheme) else {
            return
        }
        let finals = ReleaseHistory(tags: tags, format: format).releases.filter { !$0.version.isPrerelease }.prefix(5)
        guard let prefix = try? await git.prefixFromTop() else { return }
        var dropped: [String] = []
        for entry in found.versions where entry.path.hasSuffix(".go") && entry.kind == "regex" {
            guard let pattern = entry.pattern, let held = versionHeld(entry, root: root),
                (try? SemanticVersion(parsing: held.text))?.isDevelopmentMarker == true,
                let regex = try? NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
            else { continue }
            for release in finals {
                guard
                    case .found(let text) = await ReleaseCommitFiles.versionText(
                        of: entry.path, at: release.commit + "^", prefix: prefix, regex: regex, git: git),
                    let before = try? SemanticVersion(parsing: text)
                else { continue }
                if before.isDevelopmentMarker, before.final > release.version {
                    dropped.append(entry.path)
                    found.versionNotes.append(
                        "\(entry.path) holds \(held.text), but \(release.tag) was released from \(before): the project lowers its development marker, so it is not listed.")
                    break
                }
            }
        }
        found.versions.removeAll { dropped.contains($0.path) }
    }

    /// The MSBuild file holding the project's version and its element: `Directory.Version.props`
    /// or `Directory.Build.props` at the root, else the root's or `src/*/`'s `*.csproj` (the first
    /// by name, at most 20 read), whose `<VersionPrefix>` (else `<Version>`) is a literal version.
    static func msbuildVersion(root: URL) -> (path: String, element: String)? {
        var candidates = ["Directory.Version.props", "Directory.Build.props"]
        candidates += ((try? FileSystem.names(in: root)) ?? []).filter { $0.hasSuffix(".csproj") }.sorted()
        let sources = root.appendingPathComponent("src")
        for folder in ((try? FileSystem.names(in: sources)) ?? []).sorted().prefix(50) {
            let names = (try? FileSystem.names(in: sources.appendingPathComponent(folder))) ?? []
            candidates += names.filter { $0.hasSuffix(".csproj") }.sorted().map { "src/\(folder)/\($0)" }
        }
        for path in candidates.prefix(20) {
            guard let file = try? ProjectFile.open(path, in: root), file.isRegularFile,
                case .whole(let data)? = file.data(limit: 256 * 1024)
            else { continue }
            let text = TextFile.decode(data)
            for element in ["VersionPrefix", "Version"] where text.contains("<\(element)>") {
                let literal = try? Regex("<\(element)>[0-9]+\\.[0-9]+(\\.[0-9]+)?([-.][0-9A-Za-z.-]*)?</\(element)>")
                if let literal, text.firstMatch(of: literal) != nil { return (path, element) }
            }
        }
        return nil
    }

    /// The files bump2version's `.bumpversion.cfg` says carry the version (`files = VERSION
    /// faker/__init__.py docs/conf.py`, or a `[bumpversion:file:PATH]` section), each line of one
    /// holding `current_version` an entry (faker's docs/conf.py: `version` and `release`), so
    /// `bump --write` leaves none behind.
    static func adoptBumpversionFiles(_ found: inout Findings, root: URL) {
        guard let file = try? ProjectFile.open(".bumpversion.cfg", in: root), file.isRegularFile,
            case .whole(let data)? = file.data(limit: 256 * 1024)
        else { return }
        let text = TextFile.decode(data)
        guard let current = text.firstMatch(of: #/(?m)^current_version[ \t]*=[ \t]*([0-9][^\s]*)/#)?.1 else { return }
        var paths: [String] = []
        var section = ""
        var inFiles = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                section = line
                inFiles = false
                if let match = line.firstMatch(of: #/^\[bumpversion:file(?:\([^)]*\))?:([^\]]+)\]$/#) {
                    paths.append(String(match.1).trimmingCharacters(in: .whitespaces))
                }
                continue
            }
            guard section == "[bumpversion]" else { continue }
            if let match = line.firstMatch(of: #/^files[ \t]*=(.*)$/#) {
                paths += match.1.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
                inFiles = true
            } else if inFiles, raw.first == " " || raw.first == "\t", !line.isEmpty {
                paths += line.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
            } else {
                inFiles = false
            }
        }
        var listed = Set(found.versions.map(\.path))
        for path in paths where !listed.contains(path) && !path.hasPrefix("/") && !path.split(separator: "/").contains("..") {
            guard let held = try? ProjectFile.open(path, in: root), held.isRegularFile,
                case .whole(let bytes)? = held.data(limit: 512 * 1024)
            else { continue }
            let lines = TextFile.decode(bytes).split(separator: "\n").filter { $0.contains(current) }
            var prefixes: Set<String> = []
            for line in lines.prefix(3) {
                // One line: the file's own kind reads it (VERSION, `__version__`); several: each its pattern.
                guard
                    let entry = ReleaseCommitFiles.entry(
                        for: path, line: String(line), version: String(current), byKind: lines.count == 1),
                    prefixes.insert(entry.pattern ?? "").inserted
                else { continue }
                found.versions.append((entry.path, entry.kind, entry.pattern))
            }
            if listed.insert(path).inserted, found.versions.contains(where: { $0.path == path }) {
                found.versionNotes.append("\(path): .bumpversion.cfg lists it among the files that carry the version.")
            }
        }
    }

    /// What `init` learnt about the project, rendered by `render`.
    package struct Findings {
        package var name: String
        /// The manifest's package name where the project is named otherwise (taplo's `taplo-cli`
        /// crate, whose binary takes the repository's name, `taplo`): its tags may spell it.
        package var packageName: String?
        package var tagFormat = "v{version}"
        package var tagNote = "no tags yet: tags will look like v1.2.3"
        package var versions: [(path: String, kind: String?, pattern: String?)] = []
        package var versionNotes: [String] = []
        package var binaries: [String] = []
        /// Binaries built only on some platforms (`#if os(macOS)` in Package.swift).
        package var optionalBinaries: [String] = []
        package var versionScheme = VersionScheme.semver
        package var build: (command: String, directory: String)?
        /// Whether the build command builds any target it is given (`cargo build --target`) or
        /// only this machine's (`swift build`); either way init lists only this machine's target
        /// (a cross target needs a toolchain few machines have) and suggests the others.
        package var crossNote = ""
        /// The tag the header's `relctl release` example names: the manifest's version when no
        /// tag holds it yet, else `X.Y.Z`, spelt in the tag format.
        package var exampleTag = "vX.Y.Z"
        /// Why no [[version]] is needed: the ecosystem keeps the version in the tag only.
        package var tagIsTheVersion: String?
        /// Several packages with versions of their own: the `[workspace]` init offers.
        package var workspace: WorkspaceOffer?
        /// Folders whose commits are not the project's changes (`[project] exclude`): a Go
        /// module's nested modules with versions of their own (`NestedGoModules`).
        package var excluded: [(folder: String, why: String)] = []
        /// Nested Go modules tagged with the root module's versions, by folder and member name:
        /// written as workspace members grouped with the root, so a release tags each of them.
        package var lockstepModules: [(folder: String, name: String)] = []
        /// Why nested Go modules tagged with the root's versions are not listed as members.
        package var lockstepUnlisted: String?
    }

    /// A `[workspace]` for a repository of several packages (a Cargo workspace whose crates have
    /// versions of their own, npm workspaces, a `charts/` folder of charts). Written active when
    /// the history or the versions say the members release on their own (member tags such as
    /// `core-v1.2.0`, or no tags and differing versions); as a commented suggestion when they
    /// look released in lockstep (one `v1.2.3` series, one version), so init never splits a
    /// version line the project keeps together.
    package struct WorkspaceOffer: Equatable {
        package var members: [String]
        package var active: Bool
        package var tagFormat: String
        package var reason: String
        /// `[workspace.tag-formats]`: members whose own tags are spelled otherwise.
        package var tagFormats: [TagFormatEntry] = []
        /// Globs the manifests declare that hold no released package, beside globs that do
        /// (vite's `playground/**` and `packages/**/__tests__/**`): not written as members.
        package var leftOut: [String] = []
        /// Private members not listed because a published member has their name, and why.
        package var notListed: [String] = []
        /// `[[workspace.group]]`s: changesets' `fixed` groups, by member name.
        package var groups: [(name: String, members: [String], source: String)] = []
        /// `[[workspace.group]]`s of the members a folder's tag series releases together
        /// (`MemberTagSeries.folderLines`), by folder and member name.
        package var folderGroups: [(folder: String, members: [String])] = []
        /// The members' tags hold calendar versions (`TagHistory.holdsCalendarVersions`): written as
        /// the root's `version-scheme`, which every member without its own follows.
        package var calendar = false

        package static func == (lhs: WorkspaceOffer, rhs: WorkspaceOffer) -> Bool {
            (lhs.members, lhs.active, lhs.tagFormat, lhs.reason) == (rhs.members, rhs.active, rhs.tagFormat, rhs.reason)
                && (lhs.tagFormats, lhs.leftOut, lhs.notListed) == (rhs.tagFormats, rhs.leftOut, rhs.notListed)
                && lhs.groups.map { [$0.name] + $0.members } == rhs.groups.map { [$0.name] + $0.members }
                && lhs.folderGroups.map { [$0.folder] + $0.members } == rhs.folderGroups.map { [$0.folder] + $0.members }
                && lhs.calendar == rhs.calendar
        }

        package struct TagFormatEntry: Equatable {
            package var name: String
            package var format: String
        }

        package init(
            members: [String], active: Bool, tagFormat: String, reason: String,
            tagFormats: [(name: String, format: String)] = []
        ) {
            (self.members, self.active, self.tagFormat, self.reason) = (members, active, tagFormat, reason)
            self.tagFormats = tagFormats.map { TagFormatEntry(name: $0.name, format: $0.format) }
        }
    }

    package static func render(
        root: URL, detected: [String], tags: [GitTag] = [], repository: String? = nil,
        versioning: VersioningFindings = VersioningFindings(), found known: Findings? = nil
    ) -> String {
        let found =
            known
            ?? findings(
                root: root, detected: detected, tags: tags, repository: repository,
                within: versioning.maintenance?.range)
        var text = render(found, root: root, versioning: versioning)
        if let offer = found.workspace, !offer.active {
            text += """

                # Several packages were found (\(offer.members.joined(separator: ", "))), but \(offer.reason).
                # To release each on its own (tags like core-v1.2.3; docs/monorepos.md), replace the
                # [[version]] list above with:
                # [workspace]
                # members = [\(offer.members.map(QuotedString.basic).joined(separator: ", "))]
                # tag-format = \(QuotedString.basic(offer.tagFormat))

                """
        }
        return text
    }

    /// The nested Go modules released with the root module, as members with their names. A module
    /// whose name another already has (the root's: river's and gf's `cmd/river`, `cmd/gf`; an
    /// earlier module's: opentelemetry-go's `sdk/metric` after `metric`) is left out, since the
    /// workspace would refuse two members of one name, so init never writes a file `check`
    /// rejects; its commits count as the root module's, and the note says so.
    private static func lockstepMembers(_ folders: [String], root: URL, project: String)
        -> (members: [(folder: String, name: String)], unlisted: String?)
    {
        let members = folders.map { (folder: $0, name: WorkspaceMembers.detectedName(root.appendingPathComponent($0), $0)) }
        var seen: [String: String] = [project: "."]
        var listed: [(folder: String, name: String)] = []
        var shared: [String] = []
        for member in members {
            if let other = seen[member.name] {
                shared.append("`\(member.folder)` (named `\(member.name)` as `\(other)` is)")
                continue
            }
            seen[member.name] = member.folder
            listed.append(member)
        }
        guard !shared.isEmpty else { return (members, nil) }
        let why =
            "# Nested Go modules tagged with this module's versions (\(folders.count): \(folders.prefix(3).joined(separator: ", "))\(folders.count > 3 ? ", …" : "")):\n"
            + "# \(shared.prefix(3).joined(separator: ", "))\(shared.count > 3 ? ", …" : "") not listed as members, since two members would share a name;\n"
            + "# their commits count as this module's. Tag each with every release (FOLDER/vX.Y.Z), or list\n"
            + "# them in a [workspace] with a relctl.toml naming each (docs/monorepos.md).\n"
        return (listed, why)
    }

    /// The `[workspace]` of the root module and its lockstep nested modules, one group: a release
    /// tags `v1.2.3` and `extra/redisotel/v1.2.3` together, as go-redis does by hand.
    private static func renderedLockstepModules(_ found: Findings) -> String {
        guard !found.lockstepModules.isEmpty else { return found.lockstepUnlisted.map { $0 + "\n" } ?? "" }
        let folders = found.lockstepModules.map(\.folder)
        var text = found.lockstepUnlisted ?? ""
        text += """
            # Go modules in nested folders, tagged with this module's versions (\(folders[0])/vX.Y.Z beside
            # each release): members released with it in one group, each tagged as the go tool expects.
            # A nested module's commits are its own changes; the group gives all one version.
            [workspace]
            members = [\((["."] + folders).map(QuotedString.basic).joined(separator: ", "))]
            tag-format = "{member}/v{version}"

            [workspace.tag-formats]

            """
        for member in found.lockstepModules {
            text += "\(tomlKey(member.name)) = \(QuotedString.basic(member.folder + "/v{version}"))\n"
        }
        text += """

            [[workspace.group]]
            name = \(QuotedString.basic(found.name))
            members = [\(([found.name] + found.lockstepModules.map(\.name)).map(QuotedString.basic).joined(separator: ", "))]


            """
        return text
    }

    /// A TOML key: bare when it can be, else quoted.
    private static func tomlKey(_ name: String) -> String {
        name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
            ? name : QuotedString.basic(name)
    }

    /// `[project] exclude` for the folders whose commits are not the project's, each said why.
    private static func renderedExclude(_ excluded: [(folder: String, why: String)]) -> String {
        guard !excluded.isEmpty else { return "" }
        let whys = Set(excluded.map(\.why))
        let listed =
            whys.count == 1 && excluded.count > 1
            ? excluded.map(\.folder).joined(separator: ", ") + " (\(excluded[0].why))"
            : excluded.map { "\($0.folder) (\($0.why))" }.joined(separator: ", ")
        let goModules = excluded.contains { !$0.why.hasPrefix(releasePleaseConfig) }
        return
            (goModules
            ? "\n# Folders with a go.mod of their own are other Go modules, whose commits are not this one's\n"
            : "\n# Folders whose commits are not this package's ")
            + (goModules ? "# changes: " : "changes: ") + "\(listed).\n"
            + "exclude = [\(excluded.map { QuotedString.basic($0.folder.contains("*") ? $0.folder : $0.folder + "/**") }.joined(separator: ", "))]"
    }

    static let releasePleaseConfig = "release-please-config.json"

    /// A release-please config's top object (`name` from the root, through the read rule, at
    /// most 1 MiB); nil when it is missing, too large or not a JSON object.
    static func releasePleaseObject(_ name: String, root: URL) -> [String: Any]? {
        guard let file = try? ProjectFile.open(name, in: root), file.isRegularFile,
            case .whole(let data)? = file.data(limit: 1 << 20)
        else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// The folders release-please leaves out of the root package's changes
    /// (`release-please-config.json`, `packages["."]["exclude-paths"]`, or the top level's for
    /// every package): npm/cli's `workspaces`, whose `fix!:` commits made relctl propose 11.0.0
    /// for the root's 10.9.0.
    static func releasePleaseRootExcludes(root: URL) -> [(folder: String, why: String)] {
        guard let object = releasePleaseObject(releasePleaseConfig, root: root) else { return [] }
        let own = ((object["packages"] as? [String: Any])?["."] as? [String: Any])?["exclude-paths"]
        let paths = (own ?? object["exclude-paths"]) as? [String] ?? []
        return paths.compactMap { path in
            var folder = path.trimmingCharacters(in: .whitespaces)
            while folder.hasPrefix("./") { folder.removeFirst(2) }
            while folder.hasSuffix("/") { folder.removeLast() }
            // Only folders inside the repository, spelled plainly.
            guard !folder.isEmpty, !folder.hasPrefix("/"), !folder.split(separator: "/").contains("..") else { return nil }
            return (folder, "\(releasePleaseConfig) exclude-paths")
        }
    }

    private static func render(_ found: Findings, root: URL, versioning: VersioningFindings) -> String {
        if let offer = found.workspace, offer.active {
            return renderWorkspace(found, offer: offer, versioning: versioning)
        }
        var text = """
            # relctl.toml: how this project is released. Reference: \(referenceURL)
            # Check it with `relctl check`, then try `relctl release \(found.exampleTag) --dry-run`.

            [project]
            name = \(QuotedString.basic(found.name))
            tag-format = \(QuotedString.basic(found.tagFormat))   # \(found.tagNote)\(found.versionScheme == .calver ? "\nversion-scheme = \"calver\"   # numbers compared one by one, zero padding kept" : "")\(renderedExclude(found.excluded))

            # Every manifest whose version must equal the tag's. The kind is inferred from the
            # file name (cargo, npm, python, plain, swift); use kind = "regex" with a pattern otherwise.
            # Lock files and pins that follow a manifest (Cargo.lock, package-lock.json, uv.lock) are
            # found and updated automatically.

            """
        for note in found.versionNotes { text += "# \(note)\n" }
        let named = Set(found.versions.map(\.path))
        for note in unlocatedVersions(root: root, named: named, project: found.name) { text += "# \(note)\n" }
        if found.versions.isEmpty, let reason = found.tagIsTheVersion {
            text += "# No version entry: \(reason), so tags are checked for their syntax only.\n"
        } else if found.versions.isEmpty && found.versionNotes.isEmpty {
            let python = FileSystem.exists(root.appendingPathComponent("setup.py"))
                || FileSystem.exists(root.appendingPathComponent("pyproject.toml"))
            text += """
                # No manifest holding a version was found. For example:
                # [[version]]
                \(python
                    ? "# path = \"\(found.name.lowercased().replacingOccurrences(of: "-", with: "_"))/__init__.py\"   # kind \"python\": __version__ = \"1.2.3\""
                    : "# path = \"Sources/App/Version.swift\"   # kind \"swift\": let version = \"1.2.3\"")

                """
        }
        text += "\n"
        for entry in found.versions {
            text += "[[version]]\npath = \(QuotedString.basic(entry.path))\n"
            if let kind = entry.kind { text += "kind = \(QuotedString.basic(kind))\n" }
            if let pattern = entry.pattern { text += "pattern = \(QuotedString.basic(pattern))\n" }
            text += "\n"
        }
        text += renderedLockstepModules(found)
        text += versioning.rendered
        text += versioning.renderedBranch
        let branches = versioning.releaseBranches.map(QuotedString.basic).joined(separator: ", ")
        guard let build = found.build, !found.binaries.isEmpty else {
            text += """
                # No binary is built here, so this is a tag-only release: `relctl release TAG` checks the
                # versions, writes the notes and tags. To ship archives, add a [build] section with
                # `command` and `binaries`, and one [[target]] per platform.

                [release]
                branches = [\(branches)]

                """
            return text
        }
        text += """
            [build]
            # Run once per target through /bin/sh, in the project root. Placeholders:
            # {project} {version} {tag} {target} {os} {arch}; RELCTL_TARGET, RELCTL_VERSION, RELCTL_TAG,
            # RELCTL_COMMIT and SOURCE_DATE_EPOCH are in its environment.
            command = \(QuotedString.basic(build.command))
            binaries = [\(found.binaries.map(QuotedString.basic).joined(separator: ", "))]\(found.optionalBinaries.isEmpty ? "" : "\noptional-binaries = [\(found.optionalBinaries.map(QuotedString.basic).joined(separator: ", "))]   # built only where Package.swift's #if holds")
            binary-dir = \(QuotedString.basic(build.directory))

            # One [[target]] per platform; runner, archive format and links policy default by OS.
            # Only this machine's is listed: \(found.crossNote).
            [[target]]
            triple = \(QuotedString.basic(hostTriple))
            \(otherTriples.map { "# [[target]]\n# triple = \(QuotedString.basic($0))" }.joined(separator: "\n"))

            [archive]
            name = "{project}-{tag}-{target}"    # file stem and the single top-level folder
            # top-folder = false                 # a flat archive, files at its root (GoReleaser's default)
            files = [\(archiveFiles(root: root).map(QuotedString.basic).joined(separator: ", "))]
            # trees = [{ from = "demo", to = "demo" }]
            setup-env = true                     # setup-env.sh / setup-env.bat put bin/ on PATH

            [release]
            branches = [\(branches)]

            """
        return text
    }

    /// A workspace root: the members, their tag format and the branches; each member's versions
    /// come from its own manifests, and a member that ships binaries says how in its own file.
    private static func renderWorkspace(_ found: Findings, offer: WorkspaceOffer, versioning: VersioningFindings)
        -> String
    {
        var text = """
            # relctl.toml: how this repository's packages are released. Reference: docs/monorepos.md.
            # Check it with `relctl plan`, then `relctl bump --write` and `relctl release --pending --dry-run`.

            [project]
            name = \(QuotedString.basic(found.name))\(offer.calendar ? "\nversion-scheme = \"calver\"   # the members' tags hold calendar versions; every member follows it" : "")\(renderedExclude(found.excluded))

            # Several packages that release on their own: \(offer.reason).
            # Each member gets its own tags, next version and notes from the commits touching its
            # folder; its versions are read from its own manifests.
            [workspace]
            members = [\(offer.members.map(QuotedString.basic).joined(separator: ", "))]
            tag-format = \(QuotedString.basic(offer.tagFormat))

            """
        if !offer.leftOut.isEmpty {
            text += """

                # Left out: the workspace's manifests list these, but no package in them has a release
                # tag (test fixtures, playgrounds, docs). Add one to `members` to release what it holds.

                """
            for glob in offer.leftOut { text += "#   \(QuotedString.basic(glob))\n" }
        }
        if !offer.notListed.isEmpty {
            text += "\n# Not listed, so that no two members share a name and its tags:\n"
            for line in offer.notListed { text += "#   \(line)\n" }
        }
        if !offer.tagFormats.isEmpty {
            text += """

                # Members whose own tags are spelled otherwise, by member name.
                [workspace.tag-formats]

                """
            for entry in offer.tagFormats {
                text += "\(tomlKey(entry.name)) = \(QuotedString.basic(entry.format))\n"
            }
        }
        for group in offer.folderGroups {
            text += """

                # Released together on \(group.folder)'s own tags: one version.
                [[workspace.group]]
                name = \(QuotedString.basic(group.folder))
                members = [\(group.members.map(QuotedString.basic).joined(separator: ", "))]

                """
        }
        for group in offer.groups {
            text += """

                # \(group.source): released together, one version.
                [[workspace.group]]
                name = \(QuotedString.basic(group.name))
                members = [\(group.members.map(QuotedString.basic).joined(separator: ", "))]

                """
        }
        if !versioning.isEmpty { text += "\n" + versioning.rendered }
        if !versioning.memberMaintenance.isEmpty {
            text += (versioning.isEmpty ? "\n" : "") + versioning.renderedBranch.dropLast()
        }
        if let build = found.build, !found.binaries.isEmpty {
            text += """

                # A member that ships binaries (\(found.binaries.joined(separator: ", "))) gets its own relctl.toml in its
                # folder with what a single project has, for example:
                # [build]
                # command = \(QuotedString.basic(build.command))
                # binaries = [\(found.binaries.map(QuotedString.basic).joined(separator: ", "))]
                # binary-dir = \(QuotedString.basic(build.directory))
                # [[target]]
                # triple = "x86_64-unknown-linux-gnu"

                """
        }
        text += """

            [release]
            branches = [\(versioning.releaseBranches.map(QuotedString.basic).joined(separator: ", "))]

            """
        return text
    }

    /// What `init` learns about the repository at `root`: its package (`package(root:detected:)`),
    /// then its tags and, when it holds several packages, the `[workspace]` to offer.
    /// `adoptingSourceVersions`: a Swift `let version` or a podspec holding the project's version
    /// becomes a `[[version]]` (what `init` writes), not only a note.
    /// `within`: the range of the maintenance branch init runs on; its latest release is then
    /// the one a Go constant or a nested module is compared with (echo's `v4` at 4.15.4 while
    /// master released 5.3.1).
    /// `outOfLine`: the tags HEAD does not contain (`TagHistory`).
    package static func findings(
        root: URL, detected: [String], tags: [GitTag], repository: String? = nil, adoptingSourceVersions: Bool = true,
        within range: VersionRange? = nil, outOfLine: Set<String> = []
    ) -> Findings {
        var found = package(root: root, detected: detected, repository: repository)
        let aliases = packageNames(root: root, detected: detected)
        let history = TagHistory(
            tags: tags, project: found.name, aliases: aliases,
            ownsBareTags: FileSystem.exists(root.appendingPathComponent(".git")), outOfLine: outOfLine,
            folderTagsOnly: detected.contains("go.mod") && aliases.contains { !$0.hasPrefix("@") })
        (found.tagFormat, found.tagNote, found.versionScheme) = (history.format, history.note, history.scheme)
        keepApplicationLine(&found, root: root, tags: tags.map(\.name))
        if let series = ownSeries(of: found, root: root, tags: tags.map(\.name)) {
            found.tagFormat = series.format
            found.tagNote =
                series.coming
                ? "like \(series.tag): \(series.manifest) holds the version after it, not yet tagged"
                : "like \(series.tag), which names the version \(series.manifest) holds"
        }
        // The series the project's build configuration names (hatch-vcs' tag-pattern, MinVer's
        // prefix, maven-release-plugin's tags) is the maintainers' word; else the one its
        // changelog's newest releases are tagged in, where the chosen series tagged none of them.
        if let declared = declaredSeries(root: root, tags: tags.map(\.name)) {
            found.tagFormat = declared.format
            found.tagNote = "like \(declared.tag), \(declared.why)"
        } else if let series = changelogSeries(root: root, tags: tags.map(\.name), format: found.tagFormat, project: found.name) {
            found.tagFormat = series.format
            found.tagNote = "like \(series.tag), the series \(series.file)'s newest releases are tagged in"
        }
        // A Go module at the repository's top is resolved by `vX.Y.Z` tags alone: k8up's
        // `github.com/k8up-io/k8up/v2` has 40 `v2.x` tags, and its chart's 25 `k8up-4.8.7` tags
        // (charts/k8up, a go.mod of its own) are another package's series.
        if detected.contains("go.mod"), FileSystem.exists(root.appendingPathComponent(".git")),
            let chosen = try? TagFormat(found.tagFormat, project: found.name, scheme: found.versionScheme),
            chosen.prefix != "v" || !chosen.suffix.isEmpty, let module = try? GoModulePath.read(root: root),
            let bare = try? TagFormat("v{version}", project: found.name)
        {
            let reader = TagReader(bare)
            let modules = tags.filter { tag in
                guard let version = reader.releaseVersion(of: tag.name), !version.isPrerelease else { return false }
                return module.suffixMajor.map { version.major == String($0) } ?? (version.major == "0" || version.major == "1")
            }
            let count = modules.count
            // Only a series still in use: not `v` tags a project left years ago for another spelling.
            let chosenReader = TagReader(chosen)
            let newestChosen = tags.filter { chosenReader.releaseVersion(of: $0.name) != nil }.map(\.date).max() ?? 0
            let newestModule = modules.map(\.date).max() ?? 0
            if count >= 3, newestModule >= newestChosen - 365 * 86_400 {
                found.tagFormat = "v{version}"
                found.tagNote = "like the \(count) `v` tags of the module \(module.path): the go tool resolves no other spelling at a module's top"
            }
        }
        if !history.fromTags, found.versions.isEmpty, let series = chartApplicationSeries(root: root, tags: tags.map(\.name)) {
            found.tagFormat = series.format
            found.tagNote = "like the \(series.count) tags \(series.tag) leads, the version \(series.chart)'s appVersion names"
        }
        if found.versions.isEmpty, found.tagIsTheVersion == nil {
            if detected.contains("Package.swift") {
                found.tagIsTheVersion = "SwiftPM takes a package's version from its tags"
            } else if detected.contains("go.mod") {
                found.tagIsTheVersion = "Go takes a module's version from its tags"
            }
        }
        found.exampleTag = exampleTag(found, root: root, tags: Set(tags.map(\.name)))
        found.workspace = workspaceOffer(
            root: root, detected: detected, tags: tags.map(\.name),
            dates: Dictionary(tags.map { ($0.name, $0.date) }, uniquingKeysWith: max),
            commits: Dictionary(tags.compactMap { tag in tag.commit.map { (tag.name, $0) } }, uniquingKeysWith: { a, _ in a }))
        if found.workspace?.active == true, TagHistory.holdsCalendarVersions(tags) { found.workspace?.calendar = true }
        // The latest release in the chosen format: what a nested Go module or a Go constant is compared with.
        // Read once, and only where one is compared with it.
        lazy var latest = (try? TagFormat(found.tagFormat, project: found.name, scheme: found.versionScheme))
            .flatMap { format in
                let history = ReleaseHistory(tags: tags, format: format)
                return range.map { range in history.releases.first { range.contains($0.version) }?.version }
                    ?? history.latest?.version
            }
        if detected.contains("go.mod"), found.workspace?.active != true {
            let nested = NestedGoModules.partition(root: root, tags: Set(tags.map(\.name)), latest: latest)
            found.excluded = nested.own
            (found.lockstepModules, found.lockstepUnlisted) = lockstepMembers(
                nested.lockstep, root: root, project: found.name)
        }
        if found.workspace?.active != true || found.workspace?.members.contains(".") == true {
            for entry in releasePleaseRootExcludes(root: root) where !found.excluded.contains(where: { $0.folder == entry.folder }) {
                found.excluded.append(entry)
            }
        }
        if let offer = found.workspace, !offer.active { listLockstepPackages(&found, root: root, detected: detected, tags: tags) }
        if found.workspace?.active != true {
            listLernaVersion(&found, root: root)
            // jest's private root package.json at 0.0.0 beside lerna.json's 30.4.2.
            dropPlaceholderVersions(&found, root: root)
        }
        if adoptingSourceVersions, found.workspace?.active != true {
            let listed = found.versions.count
            adoptUnlocatedVersions(&found, root: root, latest: latest)
            if found.versions.count != listed {
                found.exampleTag = exampleTag(found, root: root, tags: Set(tags.map(\.name)))
            }
        }
        if found.versions.count >= 2, found.workspace?.active != true, let released = latest {
            dropStaleManifests(&found, root: root, latest: released, tags: Set(tags.map(\.name)))
        }
        if let offer = found.workspace, offer.active {
            // The members' manifests are the members' own version lines, not the root's.
            let folders = WorkspaceMembers.folders(matching: offer.members, root: root)
            found.versions.removeAll { entry in folders.contains { entry.path.hasPrefix($0 + "/") } }
            found.versionNotes.removeAll()
        }
        return found
    }

    /// The one package in the folder `root`: its name, version locations, binaries and build,
    /// read from its own manifests only. It never looks at members or tags, so reading a workspace's
    /// members (a root package listing itself as `.` among them) cannot lead back here: the walk
    /// over members is one level deep by construction.
    package static func package(root: URL, detected: [String], repository: String? = nil) -> Findings {
        // The repository names the project at its top only: in a subfolder (formatjs'
        // `packages/react-intl`, tagged `react-intl@10.1.13`) the folder's name is the package's.
        let atTop = FileSystem.exists(root.appendingPathComponent(".git"))
        var found = Findings(name: projectName(root: root, detected: detected, repository: atTop ? repository : nil))
        if detected.contains("Cargo.toml") { cargo(root: root, into: &found) }
        if detected.contains("package.json") { npm(root: root, into: &found) }
        if detected.contains("pyproject.toml") { python(root: root, into: &found) }
        if detected.contains("Package.swift") { swift(root: root, into: &found) }
        if detected.contains("VERSION") { found.versions.append(("VERSION", nil, nil)) }
        // A chart's folder (metrics-server's charts/metrics-server): the chart's own version line,
        // named as the chart is when no other manifest names the project.
        let chart = root.appendingPathComponent(HelmChartFile.name)
        if found.versions.isEmpty, FileSystem.exists(chart) {
            found.versions.append((HelmChartFile.name, HelmManifestReader.versionKind, nil))
            if detected.isEmpty,
                let name = (try? HelmChartFile.read(chart, displayPath: HelmChartFile.name))?.values["name"]?.text,
                !name.isEmpty
            {
                found.name = name
            }
        }
        // A Dart package's pubspec.yaml (`version: 1.2.1`, dart-lang/http's `1.1.0-wip` while
        // the release is prepared), read by a regex entry; its `name:` names the package.
        if found.versions.isEmpty, let text = try? ProjectFile.open("pubspec.yaml", in: root).text(),
            text.firstMatch(of: /(?m)^version:[ \t]*['"]?[0-9]/) != nil
        {
            found.versions.append(("pubspec.yaml", "regex", #"(?m)^version:[ \t]*['"]?(?<version>[0-9][^\s#'"]*)"#))
            found.versionNotes.append("pubspec.yaml's `version:` (a Dart package's) is read and written by a regex entry.")
            if detected.isEmpty, let name = text.firstMatch(of: /(?m)^name:[ \t]*['"]?([A-Za-z0-9_]+)/)?.1 {
                found.name = String(name)
            }
        }
        // An Ansible collection's galaxy.yml (`version: 5.3.0`, written ahead of the release:
        // community.docker's "The next expected release will be 5.3.0."), read by a regex entry.
        if found.versions.isEmpty, let text = try? ProjectFile.open("galaxy.yml", in: root).text(),
            text.firstMatch(of: /(?m)^version:[ \t]*['"]?[0-9]/) != nil
        {
            found.versions.append(("galaxy.yml", "regex", #"(?m)^version:[ \t]*['"]?(?<version>[0-9][^\s#'"]*)"#))
            found.versionNotes.append("galaxy.yml's `version:` (an Ansible collection's) is read and written by a regex entry.")
        }
        // An Elixir project's mix.exs (req's `@version "0.7.0-dev"` used as `version: @version`,
        // or the literal `version: "1.2.3"`), read by a regex entry; `app: :req` names it.
        if found.versions.isEmpty, let text = try? ProjectFile.open("mix.exs", in: root).text() {
            if text.firstMatch(of: /(?m)^[ \t]*@version[ \t]+"[0-9]/) != nil {
                found.versions.append(("mix.exs", "regex", #"(?m)^[ \t]*@version[ \t]+"(?<version>[0-9][^"\s]*)""#))
                found.versionNotes.append("mix.exs's `@version` (an Elixir project's) is read and written by a regex entry.")
            } else if text.firstMatch(of: /(?m)^[ \t]*version:[ \t]*"[0-9]/) != nil {
                found.versions.append(("mix.exs", "regex", #"(?m)^[ \t]*version:[ \t]*"(?<version>[0-9][^"\s]*)""#))
                found.versionNotes.append("mix.exs's `version:` (an Elixir project's) is read and written by a regex entry.")
            }
            if !found.versions.isEmpty, detected.isEmpty, let app = text.firstMatch(of: /app:[ \t]*:([a-z_][a-z0-9_]*)/)?.1 {
                found.name = String(app)
            }
        }
        // Autoconf's configure.ac (`AC_INIT([tmux], 3.0-rc3)`; tmux writes `next-3.5` between
        // releases, the version being prepared), read by a regex entry.
        if found.versions.isEmpty, let text = try? ProjectFile.open("configure.ac", in: root).text(),
            text.firstMatch(of: /AC_INIT\(\[?[^\],)]*\]?,[ \t]*\[?(next-)?[0-9]/) != nil
        {
            found.versions.append(("configure.ac", "regex", #"AC_INIT\(\[?[^\],)]*\]?,[ \t]*\[?(?:next-)?(?<version>[0-9][0-9A-Za-z.+-]*)"#))
            found.versionNotes.append("configure.ac's `AC_INIT` version is read and written by a regex entry.")
        }
        // Zig's build.zig.zon (`.version = "0.11.0"`, zine's, written ahead of the tag), a Nim
        // package's `NAME.nimble` (`version = "0.18.2"`), Bazel's MODULE.bazel (abseil's
        // `module(name = "abseil-cpp", version = "20250127.0")`) and Gradle's gradle.properties
        // (`VERSION_NAME=4.4.0-SNAPSHOT`, apollo-kotlin's and coil's: the vanniktech publishing
        // plugin's key; mockk's `version=`; a JetBrains plugin's `pluginVersion`), else the root
        // build script's `version = "5.1.0-SNAPSHOT"` (okhttp), each read by a regex entry.
        if found.versions.isEmpty {
            let nimble = ((try? FileSystem.names(in: root)) ?? []).filter { $0.hasSuffix(".nimble") }.sorted()
            let gradle = "`version` (a Gradle build's)"
            let candidates: [(path: String, pattern: String, what: String)] =
                [("build.zig.zon", #"(?m)^[ \t]*\.version[ \t]*=[ \t]*"(?<version>[0-9][^"\s]*)""#, "`.version` (a Zig package's)")]
                + (nimble.count == 1 ? [(nimble[0], #"(?m)^version[ \t]*=[ \t]*"(?<version>[0-9][^"\s]*)""#, "`version` (a Nim package's)")] : [])
                + [
                    ("MODULE.bazel", #"module\([^)]*?\bversion[ \t]*=[ \t]*"(?<version>[0-9][^"\s]*)""#, "`module(version = …)` (a Bazel module's)"),
                    ("gradle.properties", #"(?m)^[ \t]*(?:VERSION_NAME|version|pluginVersion|projectVersion)[ \t]*[=:][ \t]*(?<version>[0-9][^\s#]*)"#, gradle),
                    ("build.gradle.kts", #"(?m)^[ \t]*version[ \t]*=[ \t]*"(?<version>[0-9][^"\s]*)""#, gradle),
                    ("build.gradle", #"(?m)^[ \t]*version[ \t]*=?[ \t]*['"](?<version>[0-9][^'"\s]*)['"]"#, gradle),
                ]
            for candidate in candidates where found.versions.isEmpty {
                guard let text = try? ProjectFile.open(candidate.path, in: root).text(),
                    let regex = try? Regex(candidate.pattern), text.firstMatch(of: regex) != nil
                else { continue }
                found.versions.append((candidate.path, "regex", candidate.pattern))
                found.versionNotes.append("\(candidate.path)'s \(candidate.what) is read and written by a regex entry.")
                // settings.gradle(.kts)' `rootProject.name = "apollo-kotlin"` names a Gradle build.
                if candidate.what == gradle, detected.isEmpty,
                    let settings = (try? ProjectFile.open("settings.gradle.kts", in: root).text())
                        ?? (try? ProjectFile.open("settings.gradle", in: root).text()),
                    let name = settings.firstMatch(of: /(?m)^[ \t]*rootProject\.name[ \t]*=[ \t]*["']([A-Za-z0-9._-]+)["']/)?.1
                {
                    found.name = String(name)
                }
            }
        }
        // A .NET project's `<VersionPrefix>` (or `<Version>`) in MSBuild files (serilog's
        // `Directory.Version.props`, before it `src/Serilog/Serilog.csproj`, written ahead of each
        // release), read by a regex entry.
        if found.versions.isEmpty, let (path, element) = msbuildVersion(root: root) {
            found.versions.append((path, "regex", "<\(element)>(?<version>[0-9][^<\\s]*)</\(element)>"))
            found.versionNotes.append("\(path)'s `<\(element)>` (a .NET project's) is read and written by a regex entry.")
        }
        // setuptools' declarative setup.cfg (pre-commit: `[metadata] version = 4.6.2`, no
        // pyproject.toml), when nothing above names a version: its first `version =` line.
        if found.versions.isEmpty, let version = setupConfigVersion(root: root) {
            switch version {
            case .written(let text):
                found.versions.append(("setup.cfg", "regex", #"(?m)^version\s*=\s*(?<version>[0-9][^\s#;]*)"#))
                found.versionNotes.append("setup.cfg's [metadata] version (\(text)) is read and written by a regex entry.")
            case .attribute(let attr, let path):
                found.versions.append((path, "python", nil))
                found.versionNotes.append("setup.cfg's [metadata] version is `attr: \(attr)`, held in \(path).")
            }
        }
        // A setup.py that reads `__version__` from a file it names (pyOpenSSL's
        // `os.path.join("src", "OpenSSL", "version.py")`) or imports it from a module.
        if found.versions.isEmpty, let path = setupScriptVersionFile(root: root) ?? setupScriptVersionModule(root: root) {
            found.versions.append((path, "python", nil))
            found.versionNotes.append("setup.py reads `__version__` from \(path).")
        }
        dropPlaceholderVersions(&found, root: root)
        var seen: Set<String> = []
        found.binaries = found.binaries.filter { seen.insert($0).inserted }
        found.optionalBinaries = found.optionalBinaries.filter { found.binaries.contains($0) }
        let package = found.name
        found.name = preferredName(found.name, binaries: found.binaries, repository: repository)
        if found.name != package { found.packageName = package }
        return found
    }

    /// A manifest holding `0.0.0` beside one holding a real version is a placeholder its build
    /// never publishes (tauri's napi crate in packages/cli beside package.json's 2.0.4, pnpm's
    /// registry-mock Cargo.toml beside package.json's 1100.0.0): listed, it made `check` warn
    /// that the manifests disagree. It is left out and said.
    private static func dropPlaceholderVersions(_ found: inout Findings, root: URL) {
        guard found.versions.count > 1 else { return }
        let held = found.versions.map { versionHeld($0, root: root)?.text.trimmingCharacters(in: .whitespaces) }
        let placeholders = held.indices.filter { held[$0] == "0.0.0" }
        guard !placeholders.isEmpty, let real = held.indices.first(where: { held[$0] != nil && held[$0] != "0.0.0" })
        else { return }
        for index in placeholders {
            found.versionNotes.append(
                "\(found.versions[index].path) holds 0.0.0, a placeholder beside \(found.versions[real].path)'s \(held[real] ?? ""): not listed.")
        }
        let dropped = Set(placeholders)
        found.versions = found.versions.indices.filter { !dropped.contains($0) }.map { found.versions[$0] }
    }

    /// A virtual Cargo workspace whose crates hold several versions (alacritty's 0.16, 0.25 and 0.2
    /// lines; ruff's 0.16.4, 0.0.10 and 0.0.0) is not one version line: the line the project's tags
    /// release is the crates holding the latest tag's version, else those holding the next version
    /// after it (a development version such as `0.16.0-dev`), else the crate named as the project.
    /// The other crates keep their own versions, said in a note; nothing decides, nothing is listed.
    package static func keepApplicationLine(_ found: inout Findings, root: URL, tags: [String]) {
        let crates = found.versions.compactMap { entry -> (path: String, version: SemanticVersion, text: String)? in
            guard entry.kind == nil, entry.path.hasSuffix("/Cargo.toml"),
                let held = try? ManifestReaders.read(VersionSource(path: entry.path, kind: "cargo"), root: root),
                let version = try? SemanticVersion(parsing: held.text.trimmingCharacters(in: .whitespaces))
            else { return nil }
            return (entry.path, version, held.text)
        }
        let lines = Set(crates.map(\.text))
        guard lines.count > 1, let format = try? TagFormat(found.tagFormat, project: found.name) else { return }
        let reader = TagReader(format)
        let finals = tags.compactMap { tag -> SemanticVersion? in
            if case .release(let version, _) = reader.read(tag), !version.isPrerelease { return version }
            return nil
        }
        var line: [String] = []
        if let latest = finals.max() {
            line = crates.filter { $0.version.hasSamePrecedence(as: latest) }.map(\.path)
            if line.isEmpty {
                let after = crates.filter { latest < $0.version }
                if let next = after.map(\.version).min() {
                    line = after.filter { $0.version.hasSamePrecedence(as: next) }.map(\.path)
                }
            }
        }
        // Else the crates at one of the latest few versions tagged: rust-bindgen's main holds
        // 0.72.0 while 0.72.1 was tagged on a release branch (not tailwindcss' crates at 0.1.0, a
        // version the project tagged in 2017).
        let recent = Array(finals.sorted(by: >).prefix(5))
        if line.isEmpty,
            let top = crates.map(\.version).filter({ held in recent.contains { $0.hasSamePrecedence(as: held) } }).max()
        {
            line = crates.filter { $0.version.hasSamePrecedence(as: top) }.map(\.path)
        }
        if line.isEmpty {
            let named = crates.filter { entry in
                let folder = (entry.path as NSString).deletingLastPathComponent
                return (folder as NSString).lastPathComponent == found.name
            }
            line = named.map(\.path)
        }
        let others = crates.filter { !line.contains($0.path) }
        found.versions.removeAll { entry in others.contains { $0.path == entry.path } }
        found.versionNotes.removeAll { $0.hasPrefix("A virtual workspace:") }
        // Grouped by version, a few folders each: ruff has 40 crates at 0.0.0.
        let listed = Dictionary(grouping: others, by: \.text).sorted { $0.key < $1.key }.map { text, crates in
            let folders = crates.map { ($0.path as NSString).deletingLastPathComponent }.sorted()
            let shown = folders.prefix(3).joined(separator: ", ")
            return "\(text) in \(shown)\(folders.count > 3 ? " and \(folders.count - 3) more" : "")"
        }
        found.versionNotes.append(
            line.isEmpty
                ? "A virtual workspace whose crates hold several versions (\(listed.joined(separator: "; "))) and no tag says which is the project's: list the manifests of the line you tag, or release each crate on its own with a [workspace] (docs/monorepos.md)."
                : "Crates on other version lines are not released with this one: \(listed.joined(separator: "; ")). To release them on their own, use a [workspace] (docs/monorepos.md)."
        )
    }

    /// Files that seem to hold the project's version where no manifest relctl reads says so: a
    /// podspec (`*.podspec`, `*.podspec.json`) at the root, a Swift source file under `Sources/`
    /// holding `let version = "1.2.3"` (SwiftFormat's). One sentence each, naming the file and what
    /// it holds, for `init` and `check` to say out loud rather than propose versions without them.
    /// `named`: the paths the configuration already lists.
    /// A Swift declaration counts when it is named `version` or after the project, the package
    /// (`Package(name:)`), its file or its folder, then `Version`, in any case
    /// (`swiftFormatVersion` in `Sources/SwiftFormat.swift`), not any constant that holds a
    /// version of something else (winget's `manifestVersion` in `WingetChannel.swift`).
    package static func unlocatedVersions(root: URL, named: Set<String> = [], project: String = "") -> [String] {
        unlocatedVersionEntries(root: root, named: named, project: project).map {
            "\($0.path) holds \($0.shown), but no [[version]] names it: relctl neither checks it against the tag nor writes it; if it is the project's version, add a [[version]] for it (docs/configuration.md)"
        }
    }

    /// A version `unlocatedVersions` found: the file, the version it holds, how it is shown, and
    /// the `[[version]]` entry (kind and pattern) that reads and writes it.
    package struct UnlocatedVersion {
        package var path: String
        package var version: String
        package var shown: String
        package var kind: String
        package var pattern: String?
    }

    /// True when `text` holds `"1.2.3` or `"v1.2.3` somewhere: what every source-file version
    /// declaration `unlocatedVersionEntries` looks for quotes. A byte scan, so the regexes run only
    /// on the few files that can match.
    static func quotesThreeNumberVersion(_ text: String) -> Bool {
        let quote = UInt8(ascii: "\""), dot = UInt8(ascii: "."), v = UInt8(ascii: "v")
        func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
        return text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            var index = 0
            while index < bytes.count {
                defer { index += 1 }
                guard bytes[index] == quote else { continue }
                var at = index + 1
                if at < bytes.count, bytes[at] == v { at += 1 }
                var numbers = 0
                while numbers < 3 {
                    let start = at
                    while at < bytes.count, isDigit(bytes[at]) { at += 1 }
                    guard at > start else { break }
                    numbers += 1
                    guard numbers < 3 else { break }
                    guard at < bytes.count, bytes[at] == dot else { break }
                    at += 1
                }
                if numbers == 3 { return true }
            }
            return false
        } ?? true
    }

    /// The entries behind `unlocatedVersions`, in the same order.
    package static func unlocatedVersionEntries(
        root: URL, named: Set<String> = [], project: String = ""
    ) -> [UnlocatedVersion] {
        func letters(_ text: String) -> String { String(text.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }) }
        var found: [UnlocatedVersion] = []
        func read(_ path: String) -> String? {
            guard let file = try? ProjectFile.open(path, in: root), file.isRegularFile,
                case .whole(let data)? = file.data(limit: 512 * 1024)
            else { return nil }
            return TextFile.decode(data)
        }
        func first(_ pattern: String, in text: String) -> String? {
            guard let regex = try? Regex(pattern), let match = text.firstMatch(of: regex),
                let group = match.output[1].substring
            else { return nil }
            return String(group).trimmingCharacters(in: .whitespaces)
        }
        let names = ((try? FileSystem.names(in: root)) ?? []).sorted()
        for name in names where name.hasSuffix(".podspec") || name.hasSuffix(".podspec.json") {
            guard !named.contains(name), let text = read(name) else { continue }
            let pattern =
                name.hasSuffix(".json") ? #""version"\s*:\s*"([^"]+)""# : #"\.version\s*=\s*['"]([^'"]+)['"]"#
            if let version = first(pattern, in: text) {
                // The same match, its group named as a `regex` [[version]] needs it.
                found.append(
                    UnlocatedVersion(
                        path: name, version: version, shown: "version \(version)", kind: "regex",
                        pattern: pattern.replacingOccurrences(of: "([^", with: "(?<version>[^")))
            }
        }
        // An Info.plist's `CFBundleShortVersionString` (GRDB's `Support/Info.plist`, Kingfisher's
        // `Sources/Info.plist`), which the release commits bump beside the podspec: at the root,
        // in `Support/`, `Sources/` or a folder of `Sources/`.
        var plists = ["Info.plist", "Support/Info.plist", "Sources/Info.plist"]
        for folder in ((try? FileSystem.names(in: root.appendingPathComponent("Sources"))) ?? []).sorted().prefix(50)
        where !folder.hasPrefix(".") {
            plists.append("Sources/\(folder)/Info.plist")
        }
        let plist = #"CFBundleShortVersionString</key>\s*<string>([0-9]+\.[0-9]+(?:\.[0-9]+)?[^<]*)</string>"#
        for path in plists where !named.contains(path) {
            guard let text = read(path), let version = first(plist, in: text) else { continue }
            found.append(
                UnlocatedVersion(
                    path: path, version: version, shown: "CFBundleShortVersionString \(version)", kind: "regex",
                    pattern: #"CFBundleShortVersionString</key>\s*<string>(?<version>[^<]+)</string>"#))
        }
        // bump2version's `.bumpversion.cfg` (setuptools': `current_version = 84.0.0`), which its
        // release commit writes beside the manifest.
        let bumpversion = #"(?m)^current_version[ \t]*=[ \t]*([0-9][^\s]*)"#
        if !named.contains(".bumpversion.cfg"), let text = read(".bumpversion.cfg"),
            let version = first(bumpversion, in: text)
        {
            found.append(
                UnlocatedVersion(
                    path: ".bumpversion.cfg", version: version, shown: "current_version = \(version)", kind: "regex",
                    pattern: bumpversion.replacingOccurrences(of: "([0-9]", with: "(?<version>[0-9]")))
        }
        // `Sources/` and three folders below it (SwiftFormat's `Sources/SwiftFormat.swift`, relctl's
        // `Sources/RelctlBasics/Support/RelctlVersion.swift`), at most 400 files.
        var swiftFiles: [String] = []
        var folders = ["Sources"]
        for _ in 0..<4 {
            var deeper: [String] = []
            for folder in folders {
                for name in ((try? FileSystem.names(in: root.appendingPathComponent(folder))) ?? []).sorted()
                where !name.hasPrefix(".") {
                    let path = folder + "/" + name
                    if name.hasSuffix(".swift") {
                        swiftFiles.append(path)
                    } else if FileSystem.isDirectory(root.appendingPathComponent(path)) {
                        deeper.append(path)
                    }
                }
            }
            folders = deeper
        }
        let package = read("Package.swift").flatMap { first(#"Package\(\s*name:\s*"([^"]+)""#, in: $0) } ?? ""
        for path in swiftFiles.prefix(400) where !named.contains(path) {
            // A declaration of a three-number version (`let version = "0.62.1"`, `let swiftFormatVersion = …`).
            let parts = path.split(separator: "/").map(String.init)
            let stems = Set(
                [project, package, String(parts[parts.count - 1].dropLast(".swift".count)), parts[parts.count - 2]]
                    .map(letters).filter { !$0.isEmpty })
            let stem = stems.sorted().joined(separator: "|")
            // Every declaration the pattern takes quotes a three-number version: files without one
            // are not handed to the regex engine, which spent 0.35 s an init on swift-nio-http2's
            // sources.
            guard let text = read(path), quotesThreeNumberVersion(text),
                let declaration = first(
                    #"(?m)^\s*((?:(?:public|internal|package|static|private|fileprivate)\s+)*(?:let|var)\s+(?i:(?:\#(stem))?version)\s*(?::\s*String\s*)?=\s*"[0-9]+\.[0-9]+\.[0-9]+[^"]*")"#,
                    in: text)
            else { continue }
            guard let name = first(#"(?:let|var)\s+([A-Za-z_][A-Za-z0-9_]*)"#, in: declaration),
                let version = first(#""([^"]+)""#, in: declaration)
            else { continue }
            // `let version` is the swift kind's own pattern; another name gets one of its own.
            let pattern =
                name == "version"
                ? nil : #"(?:let|var)\s+"# + name + #"\s*(?::\s*String\s*)?=\s*"(?<version>[^"]+)""#
            found.append(
                UnlocatedVersion(
                    path: path, version: version, shown: "`\(declaration)`", kind: "swift", pattern: pattern))
        }
        // C: a version header (curl's `include/curl/curlver.h`, `#define LIBCURL_VERSION
        // "8.18.0-DEV"`, c-ares' `include/ares_version.h`, raylib's `src/raylib.h`): at the root,
        // in `include/` or `src/` and two folders below `include/`, a `.h` file whose name says
        // version (`ver`) or is the project's, at most 100 files; a define ending in VERSION (or
        // VERSION_STR, VERSION_STRING) quoting two or three numbers.
        let projectStem = letters(project).lowercased()
        var headers: [String] = []
        var headerFolders = ["", "include", "src"]
        for depth in 0..<3 {
            var deeper: [String] = []
            for folder in headerFolders {
                let listed = folder.isEmpty ? names : ((try? FileSystem.names(in: root.appendingPathComponent(folder))) ?? []).sorted()
                for name in listed.prefix(200) where !name.hasPrefix(".") {
                    let path = folder.isEmpty ? name : folder + "/" + name
                    if name.hasSuffix(".h"),
                        name.lowercased().contains("ver")
                            || (!projectStem.isEmpty && letters(String(name.dropLast(2))).lowercased() == projectStem)
                    {
                        headers.append(path)
                    } else if depth < 2, folder.hasPrefix("include"), FileSystem.isDirectory(root.appendingPathComponent(path)) {
                        deeper.append(path)
                    }
                }
            }
            headerFolders = deeper
        }
        let define = #/^[ \t]*#[ \t]*define[ \t]+([A-Za-z_][A-Za-z0-9_]*VERSION(?:_STR|_STRING)?)[ \t]+"v?([0-9]+\.[0-9]+(?:\.[0-9]+)?[^"]*)"/#
        for path in headers.prefix(100) where !named.contains(path) {
            // Only lines that can be such a define reach the regex engine (a header is mostly else).
            guard let text = read(path),
                let match = text.split(separator: "\n").lazy
                    .filter({ $0.contains("define") && $0.contains("VERSION") && $0.contains("\"") })
                    .compactMap({ $0.firstMatch(of: define) }).first
            else { continue }
            let (name, version) = (match.output.1, match.output.2)
            found.append(
                UnlocatedVersion(
                    path: path, version: String(version), shown: "`#define \(name) \"\(version)\"`", kind: "regex",
                    pattern: #"#[ \t]*define[ \t]+"# + name + #"[ \t]+"v?(?<version>[^"]+)""#))
        }
        // Go: a constant the release commit updates beside the tag (nats.go's `Version = "1.53.1"`
        // in nats.go; its 1.53.0 was tagged with 1.52.0 there and re-released to fix it), named
        // `Version` or after the project, in a top-level file or in `version/`.
        if FileSystem.exists(root.appendingPathComponent("go.mod")) {
            // `version/` and `internal/version/` (goctl's `internal/version/version.go`, whose
            // `const BuildVersion` its release commits bump, prerelease tags included).
            let inVersion = ["version", "internal/version"].flatMap { folder in
                ((try? FileSystem.names(in: root.appendingPathComponent(folder))) ?? []).sorted().map { folder + "/" + $0 }
            }
            // And a version or constants file one folder down (nats-server's `server/const.go`,
            // `VERSION = "2.15.0-dev"`).
            var below: [String] = []
            for folder in names.prefix(200)
            where !folder.hasPrefix(".") && !["version", "vendor", "testdata"].contains(folder)
                && FileSystem.isDirectory(root.appendingPathComponent(folder))
            {
                for file in ["version.go", "const.go", "constants.go"]
                where FileSystem.exists(root.appendingPathComponent(folder).appendingPathComponent(file)) {
                    below.append(folder + "/" + file)
                }
            }
            let goFiles = (names + inVersion + below).filter { $0.hasSuffix(".go") && !$0.hasSuffix("_test.go") }
            let stem = letters(project)
            let declaration =
                #"(?m)^[ \t]*(?:(?:const|var)[ \t]+)?((?i:(?:\#(stem))?version))[ \t]*(?:string[ \t]*)?=[ \t]*"v?([0-9]+\.[0-9]+\.[0-9]+[^"]*)""#
            // go-redis: `func Version() string { return "9.22.0" }`, which its release commit bumps.
            let function =
                #"(?m)^func[ \t]+((?i:(?:\#(stem))?version))\(\)[ \t]*string[ \t]*\{\s*return[ \t]+"v?([0-9]+\.[0-9]+\.[0-9]+[^"]*)""#
            // In a `version/` package any name will do (mongo-go-driver's `var Driver = "2.8.0"` in
            // `version/version.go`): init adopts a Go constant only when it names the latest release.
            let anyName = #"(?m)^[ \t]*(?:(?:const|var)[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*(?:string[ \t]*)?=[ \t]*"v?([0-9]+\.[0-9]+\.[0-9]+[^"]*)""#
            for path in goFiles.prefix(200) where !named.contains(path) {
                guard let text = read(path), quotesThreeNumberVersion(text) else { continue }
                let versionPackage = path.hasPrefix("version/") || path.hasPrefix("internal/version/")
                if let regex = try? Regex(versionPackage ? anyName : declaration), let match = text.firstMatch(of: regex),
                    let name = match.output[1].substring, let version = match.output[2].substring
                {
                    found.append(
                        UnlocatedVersion(
                            path: path, version: String(version), shown: "`\(name) = \"\(version)\"`", kind: "regex",
                            pattern: #"\b"# + name + #"[ \t]*(?:string[ \t]*)?=[ \t]*"v?(?<version>[^"]+)""#))
                } else if let regex = try? Regex(function), let match = text.firstMatch(of: regex),
                    let name = match.output[1].substring, let version = match.output[2].substring
                {
                    found.append(
                        UnlocatedVersion(
                            path: path, version: String(version), shown: "`func \(name)() string` returning \"\(version)\"",
                            kind: "regex",
                            pattern: #"\bfunc[ \t]+"# + name + #"\(\)[ \t]*string[ \t]*\{\s*return[ \t]+"v?(?<version>[^"]+)""#))
                }
            }
        }
        return found
    }

    /// `init` writes a `[[version]]` for each version `unlocatedVersionEntries` finds that holds
    /// the project's version: the one the manifests already listed hold, else the one most of these
    /// files hold (SwiftFormat's `let swiftFormatVersion` and podspec). A file holding another
    /// version stays a note, said out loud.
    package static func adoptUnlocatedVersions(_ found: inout Findings, root: URL, latest: SemanticVersion? = nil) {
        var candidates = unlocatedVersionEntries(root: root, named: Set(found.versions.map(\.path)), project: found.name)
        // A Go constant is the project's version only when it names the latest release, marks
        // the development of a later one (nats-server's `2.15.0-dev` after 2.14.x), or names the
        // final of the latest prerelease (goctl's `BuildVersion = "1.8.3"` after its
        // `tools/goctl/v1.8.3-beta`: the final is due): the tag is the module's version, and a
        // constant holding another is something else's.
        // A C header's define likewise (curl's `8.18.0-DEV` after 8.17.0): a header quoting another
        // version is some other library's.
        candidates.removeAll { entry in
            guard entry.path.hasSuffix(".go") || entry.path.hasSuffix(".h") else { return false }
            guard let latest, let held = VersionBump.semanticVersion(ofManifestText: entry.version)
                ?? (try? VersionScheme.calendarVersion(entry.version))
            else { return true }
            let finalOfPrerelease = latest.isPrerelease && !held.isPrerelease && held == latest.final
            // A header may name the release in preparation outright (raylib's `"4.2"` after 4.0.0,
            // `"6.0"` after 5.5: it skips minors): a final above the latest, in its major or the next.
            let next = entry.path.hasSuffix(".h") && !held.isPrerelease && !latest.isPrerelease && latest < held
                && (Int(held.major) ?? .max) <= (Int(latest.major) ?? 0) + 1
            return held != latest && !(held.isDevelopmentMarker && held.final > latest) && !finalOfPrerelease && !next
        }
        guard !candidates.isEmpty else { return }
        let listed = found.versions.lazy.compactMap { versionHeld($0, root: root, unknownAs: "plain")?.text }.first
        let counts = Dictionary(grouping: candidates, by: \.version).mapValues(\.count)
        let most = candidates.max { counts[$0.version]! < counts[$1.version]! }?.version
        guard let version = listed ?? most else { return }
        for entry in candidates where entry.version == version {
            found.versions.append((entry.path, entry.kind, entry.pattern))
        }
    }

    /// A manifest holding a version below the latest release that no tag names, beside one holding
    /// the latest release or more, is not the project's version (pydantic-core's package.json at
    /// 1.0.0, "for running wasm tests", beside Cargo.toml's 2.41.5: `validate-tag` refused the
    /// project's own release tag and `bump --write` moved it). It is left out, and said so.
    private static func dropStaleManifests(
        _ found: inout Findings, root: URL, latest: SemanticVersion, tags: Set<String>
    ) {
        let held = found.versions.map { entry -> SemanticVersion? in
            versionHeld(entry, root: root).flatMap { try? SemanticVersion(parsing: $0.text) }
        }
        guard held.contains(where: { $0.map { !($0.final < latest) } ?? false }) else { return }
        var kept: [(path: String, kind: String?, pattern: String?)] = []
        for (entry, version) in zip(found.versions, held) {
            if let version, version.final < latest, !tags.contains(where: { $0.hasSuffix(version.description) }) {
                found.versionNotes.append(
                    "\(entry.path) holds \(version), below the latest release \(latest) and never tagged: not listed as the project's version.")
                continue
            }
            kept.append(entry)
        }
        found.versions = kept
    }

    /// lerna's fixed mode keeps the line's version in `lerna.json` (`"version": "10.0.1"`), and
    /// its release commit writes it with the packages (lerna's, trpc's): a `[[version]]` of kind
    /// npm (`"independent"` is no version: each package has its own).
    private static func listLernaVersion(_ found: inout Findings, root: URL) {
        guard !found.versions.contains(where: { $0.path == "lerna.json" }),
            let text = try? ManifestReaders.read(VersionSource(path: "lerna.json", kind: "npm"), root: root).text,
            (try? SemanticVersion(parsing: text)) != nil
        else { return }
        found.versions.append(("lerna.json", "npm", nil))
    }

    /// The version an entry of `Findings.versions` holds, read as its `[[version]]` will be; an
    /// entry whose kind neither it nor its file name gives is read as `unknownAs` (nil: not read).
    private static func versionHeld(
        _ entry: (path: String, kind: String?, pattern: String?), root: URL, unknownAs fallback: String? = nil
    ) -> ManifestVersion? {
        guard let kind = entry.kind ?? ManifestReaders.kind(forFileName: entry.path) ?? fallback else { return nil }
        return try? ManifestReaders.read(VersionSource(path: entry.path, kind: kind, pattern: entry.pattern), root: root)
    }

    /// An npm workspace released in lockstep (one tag series, one version): every published
    /// member's package.json holding the line's version is a version of the release, as vue's
    /// release script writes all eleven (`init` listed only the private root's, and a release
    /// left the packages behind) and zod's only public package holds it while the root has none.
    /// The line's version is the root's, else the latest release's.
    private static func listLockstepPackages(_ found: inout Findings, root: URL, detected: [String], tags: [GitTag]) {
        let declared = MemberDiscovery.declaredGlobs(root: root, detected: detected, tags: tags.map(\.name))
        guard !declared.members.isEmpty else { return }
        var line: SemanticVersion?
        let latest = (try? TagFormat(found.tagFormat, project: found.name, scheme: found.versionScheme)).flatMap {
            ReleaseHistory(tags: tags, format: $0).latest?.version
        }
        // A private root package.json at a version no release has (tailwindcss' `@tailwindcss/root`
        // at 1.0.0 while its packages hold v4.3.3) is no manifest of the line: the tags give it.
        var privateRoot = false
        if let first = found.versions.first, first.path == "package.json", let latest,
            MemberDiscovery.isUnpublished(root),
            let held = versionHeld(first, root: root, unknownAs: "plain").flatMap({ try? SemanticVersion(parsing: $0.text) }),
            !held.hasSamePrecedence(as: latest), held < latest
        {
            privateRoot = true
            line = latest
        } else if let first = found.versions.first {
            line = versionHeld(first, root: root, unknownAs: "plain").flatMap { try? SemanticVersion(parsing: $0.text) }
        } else {
            line = latest
        }
        guard let line else { return }
        let members = MemberDiscovery.members(
            root: root, folders: MemberDiscovery.folders(root: root, members: declared.members, excluded: declared.excluded))
        var added: [String] = []
        for member in members where !member.folder.isEmpty && !member.unpublished {
            // zellij's crates hold the root package's version as literals its release commit
            // writes (`version.workspace = true` is the root's to write, not listed again).
            for (name, kind) in [("package.json", "npm"), ("Cargo.toml", "cargo")] {
                let path = member.folder + "/" + name
                guard !found.versions.contains(where: { $0.path == path }),
                    let read = try? ManifestReaders.read(VersionSource(path: path, kind: kind), root: root),
                    read.foundIn == path,
                    let held = try? SemanticVersion(parsing: read.text), held.hasSamePrecedence(as: line)
                else { continue }
                found.versions.append((path, nil, nil))
                added.append(member.folder)
            }
        }
        guard !added.isEmpty else { return }
        if privateRoot {
            found.versions.removeAll { $0.path == "package.json" }
            found.versionNotes.append("package.json is private and holds no released version: not listed.")
        }
        found.versionNotes.append(
            "Released in lockstep: the workspace's published packages holding \(line) are listed too (\(added.count)), so a release writes them all.")
    }

    /// Why a single project needs no `[[version]]`: its ecosystem takes the version from the tag
    /// (a Swift package, a Go module, a dynamic pyproject.toml version); nil when a manifest holds
    /// one. `check` says nothing of the missing `[[version]]` then.
    package static func versionOnlyInTags(root: URL) -> String? {
        let detected = detectable.filter { FileSystem.exists(atPath: root.appendingPathComponent($0).path) }
        let found = findings(root: root, detected: detected, tags: [], adoptingSourceVersions: false)
        return found.versions.isEmpty && found.workspace == nil ? found.tagIsTheVersion : nil
    }

    /// Where the header sends readers: the configuration reference.
    package static let referenceURL = RelctlVersion.repository + "/blob/main/docs/configuration.md"

    /// This machine's target, the one target whose build `init` can promise.
    package static var hostTriple: String {
        let arch = TargetResolver.hostArchitectures.first ?? "x86_64"
        switch TargetResolver.hostOS {
        case "macos": return "\(arch)-apple-darwin"
        case "windows": return "\(arch)-pc-windows-msvc"
        default: return "\(arch)-unknown-linux-gnu"
        }
    }

    /// The other usual platforms, suggested in comments.
    package static var otherTriples: [String] {
        ["x86_64-unknown-linux-gnu", "aarch64-apple-darwin", "x86_64-pc-windows-msvc"].filter { $0 != hostTriple }
    }

    /// The header's example tag: the manifest's version in the tag format when no tag holds it
    /// yet (the first release of a fresh crate), else `X.Y.Z` in the tag format.
    private static func exampleTag(_ found: Findings, root: URL, tags: Set<String>) -> String {
        func spelt(_ version: String) -> String {
            // A format joining the parts with `_` (`curl-{major}_{minor}_{patch}`) spells them so;
            // it holds no `{version}` (TagFormat refuses both).
            found.tagFormat.replacingOccurrences(of: "{project}", with: found.name)
                .replacingOccurrences(of: TagFormat.underscoredVersion, with: version.replacingOccurrences(of: ".", with: "_"))
                .replacingOccurrences(of: "{version}", with: version)
        }
        let version = found.versions.first.flatMap { versionHeld($0, root: root)?.text }
        if let version, version.range(of: #"^[0-9]+\.[0-9]+\.[0-9]+$"#, options: .regularExpression) != nil,
            !tags.contains(spelt(version))
        {
            return spelt(version)
        }
        return spelt("X.Y.Z")
    }

    /// The `[workspace]` to offer, or nil when the repository is one package.
    /// `dates`: when each tag was made, so member tags the history moved on from do not decide.
    package static func workspaceOffer(
        root: URL, detected: [String], tags: [String], dates: [String: Int] = [:], commits: [String: String] = [:]
    ) -> WorkspaceOffer? {
        var declared = MemberDiscovery.declaredGlobs(root: root, detected: detected, tags: tags)
        // An entry naming no folder (swr's `core` in pnpm-workspace.yaml) would be written as a
        // member `check` refuses: only what matches something is listed.
        declared.members.removeAll { WorkspaceMembers.folders(matching: [$0], root: root).isEmpty }
        let folders = MemberDiscovery.folders(root: root, members: declared.members, excluded: declared.excluded)
        // One chart under `charts/` and no package at the root (vector's helm-charts: `charts/vector`,
        // tagged `vector-0.56.0`) is a workspace of that one member when its own tags name it: at
        // the root, init wrote no chart, `v{version}` and 0.1.0.
        let lone = folders.count == 1 && folders[0].hasPrefix("charts/") && detected.isEmpty
        guard folders.count >= 2 || lone else { return nil }
        // A negated glob (pnpm's `!**/test/**`) that leaves a folder out: the folders, named one by one.
        let globs =
            folders == WorkspaceMembers.folders(matching: declared.members, root: root)
            ? declared.members : folders.map { $0.isEmpty ? "." : $0 }
        let members = MemberDiscovery.members(root: root, folders: folders)
        // Member tags decide: each member's format from its own series (`core-v1.2.0`,
        // `@scope/core@1.2.0`), the bare `v1.2.3` series to the member holding its version.
        if let series = MemberTagSeries.read(members: members, tags: tags, dates: dates, commits: commits) {
            var reason = "tags such as `\(series.example)` name a member"
            if let bare = series.bare { reason += ", and `\(bare.tag)` releases \(bare.name)" }
            var offer = WorkspaceOffer(
                members: globs, active: true, tagFormat: series.format, reason: reason,
                tagFormats: series.exceptions.map { ($0.name, $0.format) })
            // With the root a package itself (`.`), a folder left out would count as the root's.
            if globs == declared.members, !globs.contains(".") {
                let released = releasedFolders(members, format: series.format, exceptions: series.exceptions, tags: tags)
                let unpublished = Set(members.filter(\.unpublished).map(\.folder))
                // A glob is left out when nothing in it was released and it says what it holds is
                // never published: every package private, or a test, fixture or playground folder.
                // Crates released in step with the root (clap's `clap_builder`) stay members.
                let kept = globs.filter { glob in
                    let matched = WorkspaceMembers.folders(matching: [glob], root: root)
                    if matched.contains(where: { released.contains($0) }) { return true }
                    return !holdsNothingPublished(glob, matched: matched, unpublished: unpublished)
                }
                if !kept.isEmpty, kept.count < globs.count {
                    offer.members = kept
                    offer.leftOut = globs.filter { !kept.contains($0) }
                    let keptFolders = Set(WorkspaceMembers.folders(matching: kept, root: root))
                    let keptNames = Set(members.filter { keptFolders.contains($0.folder) }.map(\.name))
                    offer.tagFormats.removeAll { !keptNames.contains($0.name) }
                }
            }
            // One line per name: two members of one name (test apps) would repeat a TOML key.
            var named: Set<String> = []
            offer.tagFormats.removeAll { !named.insert($0.name).inserted }
            unlistPrivateNamesakes(&offer, members: members, root: root)
            let listedNames = Set(offer.tagFormats.map(\.name))
            offer.folderGroups = series.folderLines.compactMap { line in
                let kept = line.members.filter { listedNames.contains($0) }
                return kept.count >= 2 ? (line.folder, kept) : nil
            }
            let released = releasedFolders(members, format: series.format, exceptions: series.exceptions, tags: tags)
            offer.groups = changesetsFixedGroups(root: root, members: members, listed: offer.members, released: released)
            let grouped = Set(offer.groups.flatMap(\.members))
            offer.groups += releasePlzVersionGroups(root: root, members: members, listed: offer.members, released: released)
                .map { group in (group.name, group.members.filter { !grouped.contains($0) }, group.source) }
                .filter { $0.1.count >= 2 }
            let taken = Set(offer.groups.flatMap(\.members))
            offer.groups += releasePleaseLinkedGroups(root: root, members: members, listed: offer.members, released: released)
                .map { group in (group.name, group.members.filter { !taken.contains($0) }, group.source) }
                .filter { $0.1.count >= 2 }
            return offer
        }
        if lone { return nil }
        let versions = Set(members.compactMap(\.version))
        if tags.isEmpty, versions.count > 1 {
            var offer = WorkspaceOffer(
                members: globs, active: true, tagFormat: "{member}-v{version}",
                reason: "the members hold different versions and nothing is tagged yet")
            unlistPrivateNamesakes(&offer, members: members, root: root)
            return offer
        }
        // Offered in a comment only: never private packages or test fixtures (Chart.js'
        // `"private": "true"` docs and `test/integration/*`), which no release would publish.
        let unpublished = Set(members.filter(\.unpublished).map(\.folder))
        let offered = globs.filter { glob in
            !holdsNothingPublished(
                glob, matched: WorkspaceMembers.folders(matching: [glob], root: root), unpublished: unpublished)
        }
        guard offered.count >= 2 || (offered.count == 1 && offered[0].contains("*")) else { return nil }
        return WorkspaceOffer(
            members: offered, active: false, tagFormat: "{member}-v{version}",
            reason: tags.isEmpty
                ? "the members hold one version: released in lockstep, as this file does"
                : "the tags are one series for the whole repository, as this file releases it")
    }

    /// changesets' `fixed` groups (`.changeset/config.json`: `"fixed": [["@tanstack/form-core",
    /// "@tanstack/react-form", …]]`, a `*` matching any text): packages changesets always releases
    /// together with one version, which is what a `[[workspace.group]]` does. TanStack form's
    /// `form-core` was released ten times with its group and no change of its own. Each group of
    /// at least two listed members, named after its first; a member already in a group is not
    /// put in a second (`plan` would refuse it). Only members with a tag of their own: biome's
    /// fixed group holds its eleven platform packages, published but never tagged, whose commits
    /// would size the group's release (every release a minor). changesets' `linked` groups share
    /// only a level, not releases: not groups (ChangeFragments reads them).
    static func changesetsFixedGroups(
        root: URL, members: [DiscoveredMember], listed: [String], released: Set<String>
    ) -> [(name: String, members: [String], source: String)] {
        guard let file = try? ProjectFile.open(".changeset/config.json", in: root), file.isRegularFile,
            case .whole(let data)? = file.data(limit: 1 << 20),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let fixed = object["fixed"] as? [[String]]
        else { return [] }
        let listedFolders = Set(WorkspaceMembers.folders(matching: listed, root: root))
        let candidates = members.filter { listedFolders.contains($0.folder) && released.contains($0.folder) }
        var taken: Set<String> = []
        var groups: [(name: String, members: [String], source: String)] = []
        for patterns in fixed {
            var names: [String] = []
            for pattern in patterns {
                for member in candidates
                where ChangeFragments.matches(member.packageName ?? member.name, pattern) && !taken.contains(member.name)
                    && !names.contains(member.name)
                {
                    names.append(member.name)
                }
            }
            guard names.count >= 2 else { continue }
            taken.formUnion(names)
            groups.append((names[0], names, "changesets' `fixed` group (.changeset/config.json)"))
        }
        return groups
    }

    /// release-please's `linked-versions` plugins (`release-please-config.json` `plugins`: `{"type":
    /// "linked-versions", "groupName": "microsoft-kiota", "components": [...]}`): components released
    /// together at one version, a `[[workspace.group]]` named after the plugin's group. kiota-python
    /// released its eight packages at 1.11.3 for a fix in one of them; without the group the
    /// others proposed nothing (5 points of round 29). A component is a member by the folder
    /// release-please gives it (`component`, else `package-name`); members with a tag of their own only.
    static func releasePleaseLinkedGroups(
        root: URL, members: [DiscoveredMember], listed: [String], released: Set<String>
    ) -> [(name: String, members: [String], source: String)] {
        guard let object = releasePleaseObject(releasePleaseConfig, root: root),
            let plugins = object["plugins"] as? [Any]
        else { return [] }
        let components = MemberDiscovery.releasePleaseNames(root: root, componentFirst: true)
        let listedFolders = Set(WorkspaceMembers.folders(matching: listed, root: root))
        let byComponent = Dictionary(
            members.compactMap { member -> (String, String)? in
                guard listedFolders.contains(member.folder), released.contains(member.folder),
                    let component = components[member.folder]
                else { return nil }
                return (component, member.name)
            }, uniquingKeysWith: { first, _ in first })
        var groups: [(name: String, members: [String], source: String)] = []
        var taken: Set<String> = []
        for case let plugin as [String: Any] in plugins where plugin["type"] as? String == "linked-versions" {
            let components = (plugin["components"] as? [Any] ?? []).compactMap { $0 as? String }
            var group: [String] = []
            for component in components {
                if let name = byComponent[component], !taken.contains(name), !group.contains(name) { group.append(name) }
            }
            guard group.count >= 2 else { continue }
            taken.formUnion(group)
            let name = (plugin["groupName"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? group[0]
            groups.append((name, group, "release-please's `linked-versions` plugin (release-please-config.json)"))
        }
        return groups
    }

    /// release-plz's version groups (`release-plz.toml`: `[[package]] name = "facet-core"`,
    /// `version_group = "facet"`): crates released together with one version, a
    /// `[[workspace.group]]` named after the group. facet's 17 crates share one; a fix in
    /// `facet-pretty` released them all, and without the group `facet` proposed nothing. Only
    /// members with a tag of their own (facet's never-tagged `facet-zod` would size the group's
    /// first release), each group of at least two.
    static func releasePlzVersionGroups(
        root: URL, members: [DiscoveredMember], listed: [String], released: Set<String>
    ) -> [(name: String, members: [String], source: String)] {
        for file in ["release-plz.toml", ".release-plz.toml"] {
            guard let document = try? TOMLDocument(file: ProjectFile.open(file, in: root)) else { continue }
            let listedFolders = Set(WorkspaceMembers.folders(matching: listed, root: root))
            let candidates = members.filter { listedFolders.contains($0.folder) && released.contains($0.folder) }
            var order: [String] = []
            var byGroup: [String: [String]] = [:]
            for entry in document.root["package"]?.array ?? [] {
                guard let table = entry.table, let name = table["name"]?.string, let group = table["version_group"]?.string,
                    let member = candidates.first(where: { ($0.packageName ?? $0.name) == name || $0.name == name })
                else { continue }
                if byGroup[group] == nil { order.append(group) }
                if byGroup[group]?.contains(member.name) != true { byGroup[group, default: []].append(member.name) }
            }
            var taken: Set<String> = []
            return order.compactMap { group in
                let names = (byGroup[group] ?? []).filter { taken.insert($0).inserted }
                return names.count >= 2 ? (group, names, "release-plz's version_group (\(file))") : nil
            }
        }
        return []
    }

    /// Two members of one name would share their tags, and `plan` refuses them: pnpm's Rust
    /// `pnpr/crates/pnpr` and its private npm wrapper `@pnpm/pnpr` in `pnpr/npm/pnpr`. When exactly
    /// one of the namesakes is published, the private ones are not listed (the members are then
    /// written folder by folder) and a comment names them. When none is (pinia's two private
    /// `@pinia/playground` folders), none is listed; when several are (lit's `@lit/context` and
    /// `@lit-labs/context`), the one nearest the top is, and the comment says how to add the others.
    /// A member whose name no tag can spell (skuba's project template `template/greeter`, named
    /// `@seek/<%- repoName %>`) is not listed either: `check` would refuse every tag format.
    private static func unlistPrivateNamesakes(_ offer: inout WorkspaceOffer, members: [DiscoveredMember], root: URL) {
        let listedFolders = WorkspaceMembers.folders(matching: offer.members, root: root)
        let listed = Set(listedFolders)
        var candidates = members.filter { listed.contains($0.folder) }
        var unlisted: [String: String] = [:]
        for member in candidates {
            guard let why = GitRefName.problem(in: member.name + "-v1.2.3") ?? GitRefName.problem(in: member.name + "@1.2.3") else {
                continue
            }
            unlisted[member.folder] =
                "\(QuotedString.basic(member.folder)) (named \(QuotedString.basic(member.name)), which no tag can spell: \(why))"
        }
        candidates.removeAll { unlisted[$0.folder] != nil }
        for (_, namesakes) in Dictionary(grouping: candidates, by: \.name) where namesakes.count > 1 {
            // tauri's `examples/api` and `examples/api/src-tauri` are named `api` like the
            // published `packages/api`: an example is not released, published or not.
            let released = namesakes.filter { !$0.unpublished && !isFixture($0.folder) }
            if released.isEmpty {
                for member in namesakes {
                    unlisted[member.folder] =
                        "\(QuotedString.basic(member.folder)) (\(member.unpublished ? "private" : "an example or test"), named \(QuotedString.basic(member.name)) like another such folder, whose tags it would share)"
                }
                continue
            }
            let kept = released.min { ($0.folder.split(separator: "/").count, $0.folder) < ($1.folder.split(separator: "/").count, $1.folder) }!
            for member in namesakes where member.folder != kept.folder {
                // Folder and package names are the repository's: quoted, so none can end the comment.
                let what =
                    member.unpublished
                    ? "private" : isFixture(member.folder) ? "an example or test" : "published too: give it a [project] name in its own relctl.toml and list it to release it"
                unlisted[member.folder] =
                    "\(QuotedString.basic(member.folder)) (\(what), named \(QuotedString.basic(member.name)) like \(QuotedString.basic(kept.folder)), whose tags it would share)"
            }
        }
        guard !unlisted.isEmpty else { return }
        offer.members = listedFolders.filter { unlisted[$0] == nil }.map { $0.isEmpty ? "." : $0 }
        offer.notListed = unlisted.keys.sorted().compactMap { unlisted[$0] }
        // A tag format for a name no listed member has would name no member: `check` refuses it.
        let names = Set(candidates.filter { unlisted[$0.folder] == nil }.map(\.name))
        offer.tagFormats.removeAll { !names.contains($0.name) }
    }

    /// A member glob that says what it holds is never published: a test, fixture or playground
    /// folder, or folders (`matched`) whose packages are all private (`unpublished`).
    static func holdsNothingPublished(_ glob: String, matched: [String], unpublished: Set<String>) -> Bool {
        isFixture(glob) || (!matched.isEmpty && matched.allSatisfy { unpublished.contains($0) })
    }

    /// Whether `folder` lies in a folder that tests or shows (`fixtureFolders`).
    static func isFixture(_ folder: String) -> Bool {
        folder.lowercased().split(separator: "/").contains { fixtureFolders.contains(String($0)) }
    }

    /// Folder names that hold what a workspace tests or shows, never what it releases.
    static let fixtureFolders: Set<String> = [
        "test", "tests", "__tests__", "fixture", "fixtures", "playground", "playgrounds", "example", "examples", "e2e",
    ]

    /// The folders of the members with a release tag in their series (`{member}@{version}` with
    /// the member's name, or its own format): a tag starting with the format's text before
    /// `{version}` and going on with a digit.
    private static func releasedFolders(
        _ members: [DiscoveredMember], format: String, exceptions: [(name: String, format: String)], tags: [String]
    ) -> Set<String> {
        var released: Set<String> = []
        for member in members {
            let own = exceptions.first { $0.name == member.name }?.format
                ?? format.replacingOccurrences(of: "{member}", with: member.name)
            guard let marker = own.range(of: "{version}") else { continue }
            let prefix = String(own[..<marker.lowerBound])
            if tags.contains(where: { $0.hasPrefix(prefix) && $0.dropFirst(prefix.count).first?.isNumber == true }) {
                released.insert(member.folder)
            }
        }
        return released
    }

    /// The tag series of a package whose tags its name does not spell (pydantic's `pydantic-core`
    /// folder releases as `core-v2.48.0`, beside the repository's own `v2.14.0`): when no tag of
    /// the chosen format names the version the first manifest holds, and the tags naming it share
    /// one prefix of their own (ending in `-`, `_`, `/` or `@`, then an optional `v`), that is the
    /// series. When no tag names it, the manifest may hold the coming version, written before its
    /// tag (pydantic-core's Cargo.toml holds 2.46.0 while `core-v2.45.0` is its latest release):
    /// the series is then the one prefix whose tags name the version one step below it (its
    /// previous patch, or a release of the previous minor or major line), provided the chosen
    /// format has no such tag (`coming` true). Nil when the chosen format already names it or
    /// continues to it, or nothing decides.
    package static func ownSeries(
        of found: Findings, root: URL, tags: [String]
    ) -> (format: String, tag: String, manifest: String, coming: Bool)? {
        guard let first = found.versions.first, let held = versionHeld(first, root: root) else { return nil }
        let version = held.text.trimmingCharacters(in: .whitespaces)
        guard !version.isEmpty, let format = try? TagFormat(found.tagFormat, project: found.name) else { return nil }
        let chosenTag = format.prefix + version + format.suffix
        // A member folder's series named after the folder itself outranks another package's tag
        // of the same version: tokenizers' `bindings/node` (package.json 0.8.1, its latest
        // `node-v0.8.0`) is not the Python binding's `python-v0.8.1`.
        if !FileSystem.exists(root.appendingPathComponent(".git")), let series = folderSeries(root: root, version: version, tags: tags),
            series.prefix != format.prefix
        {
            return (series.prefix + "{version}", series.tag, held.foundIn, series.coming)
        }
        // A chart whose version equals its appVersion (external-secrets' chart 2.9.0 deploys
        // v2.9.0): the repository's bare tag names the application; the chart's own is the one
        // named series naming the version too (`helm-chart-2.9.0`).
        if tags.contains(chosenTag), first.path == HelmChartFile.name, TagHistory.isGeneric(format.prefix),
            format.suffix.isEmpty,
            let app = (try? HelmChartFile.read(root.appendingPathComponent(HelmChartFile.name), displayPath: HelmChartFile.name))?
                .values["appVersion"]?.text,
            app.trimmingCharacters(in: .whitespaces).drop(while: { $0 == "v" }) == version
        {
            let named = Set(
                tags.compactMap { tag -> String? in
                    guard tag.hasSuffix(version), tag.count > version.count else { return nil }
                    let prefix = String(tag.dropLast(version.count))
                    return !TagHistory.isGeneric(prefix) && isSeriesPrefix(prefix)
                        ? prefix : nil
                })
            if named.count == 1, let prefix = named.first {
                let ownName = !found.name.isEmpty && prefix.hasPrefix(found.name)
                return ((ownName ? "{project}" + prefix.dropFirst(found.name.count) : prefix) + "{version}", prefix + version, held.foundIn, false)
            }
            // The application tags first, the chart days later (descheduler's `v0.32.0`, then
            // `descheduler-helm-chart-0.32.0`): before the chart's tag, its own series is the one
            // named after the chart whose newest release is a step below the version it holds.
            if named.isEmpty, !found.name.isEmpty, let heldVersion = try? SemanticVersion(parsing: version),
                let x = Int(heldVersion.major), let y = Int(heldVersion.minor), let z = Int(heldVersion.patch)
            {
                var newest: [String: (tag: String, version: SemanticVersion)] = [:]
                for tag in tags {
                    guard let match = tag.wholeMatch(of: /(.*[-_\/@][vV]?)(\d+\.\d+\.\d+)/),
                        String(match.1).lowercased().hasPrefix(found.name.lowercased()), isSeriesPrefix(String(match.1)),
                        let parsed = try? SemanticVersion(parsing: String(match.2))
                    else { continue }
                    let prefix = String(match.1)
                    if newest[prefix].map({ $0.version < parsed }) ?? true { newest[prefix] = (tag, parsed) }
                }
                let continued = newest.filter { entry in
                    guard let a = Int(entry.value.version.major), let b = Int(entry.value.version.minor),
                        let c = Int(entry.value.version.patch)
                    else { return false }
                    return isStepBelow((a, b, c), (x, y, z))
                }
                if continued.count == 1, let (prefix, last) = continued.first {
                    let spelled = prefix.hasPrefix(found.name) ? "{project}" + prefix.dropFirst(found.name.count) : prefix
                    return (spelled + "{version}", last.tag, held.foundIn, true)
                }
            }
        }
        // The chosen series released this version long ago and went on (parking_lot's bare
        // `0.12.0` beside `core-0.9.0`, all three crates tagged on one commit): in the `core`
        // folder, whose Cargo.toml holds 0.9.0, the one named series whose newest tag names
        // exactly that version is the crate's.
        if tags.contains(chosenTag), TagHistory.isGeneric(format.prefix), format.suffix.isEmpty,
            let heldVersion = try? SemanticVersion(parsing: version),
            tags.contains(where: { tag in
                tag.hasPrefix(format.prefix)
                    && (try? SemanticVersion(parsing: String(tag.dropFirst(format.prefix.count)))).map { heldVersion < $0 && !$0.isPrerelease }
                        == true
            })
        {
            var newest: [String: SemanticVersion] = [:]
            for tag in tags {
                guard let match = tag.firstMatch(of: /^([A-Za-z0-9._@\/-]*[-_\/@][vV]?)([0-9]+\.[0-9]+\.[0-9]+.*)$/),
                    !TagHistory.isGeneric(String(match.1)), let parsed = try? SemanticVersion(parsing: String(match.2))
                else { continue }
                let prefix = String(match.1)
                if newest[prefix].map({ $0 < parsed }) ?? true { newest[prefix] = parsed }
            }
            let owners = newest.filter { $0.value.hasSamePrecedence(as: heldVersion) }.map(\.key)
            if owners.count == 1, let prefix = owners.first {
                let ownName = !found.name.isEmpty && prefix.hasPrefix(found.name)
                return ((ownName ? "{project}" + prefix.dropFirst(found.name.count) : prefix) + "{version}", prefix + version, held.foundIn, false)
            }
        }
        if tags.contains(chosenTag) { return nil }
        // When the chosen format is named after the project, the repository's bare tags are a
        // series too: yargs' two old `yargs-v16.2.1` tags against the `v17.5.0` naming its version.
        let named = !TagHistory.isGeneric(format.prefix) || !format.suffix.isEmpty
        // A project with tags of its own name never takes another package's series because one of
        // its tags names the same version (tauri's crate at 2.0.1 beside `@tauri-apps/api-v2.0.1`).
        // So do tags spelling its name inside a series prefix (taplo's `release-taplo-cli-0.8.0`):
        // its manifest's 0.8.1, written before that tag, is not the VS Code extension's
        // `release-vscode-0.8.1`, nor the library's `release-taplo-0.9.0` later.
        let packageName = found.packageName ?? found.name
        func spellsName(_ prefix: String) -> Bool {
            guard !packageName.isEmpty else { return false }
            var stem = prefix.lowercased()
            if stem.hasSuffix("v") { stem.removeLast() }
            guard let separator = stem.last, "-_/@".contains(separator) else { return false }
            stem.removeLast()
            let name = packageName.lowercased()
            guard stem.hasSuffix(name) else { return false }
            let before = stem.dropLast(name.count)
            return before.isEmpty || before.last.map { "-_/@".contains($0) } == true
        }
        // Only a series that reaches the version held, or a step below it: ingress-nginx's chart
        // left `ingress-nginx-3.15.2` behind for `helm-chart-4.x` years ago.
        let heldNumbers = (try? SemanticVersion(parsing: version)).flatMap { held -> (Int, Int, Int)? in
            guard let x = Int(held.major), let y = Int(held.minor), let z = Int(held.patch) else { return nil }
            return (x, y, z)
        }
        let spelledTags = tags.contains { tag in
            guard let (x, y, z) = heldNumbers, let match = tag.wholeMatch(of: /(.*[-_\/@][vV]?)(\d+)\.(\d+)\.(\d+)/),
                let a = Int(match.2), let b = Int(match.3), let c = Int(match.4),
                spellsName(String(match.1)), String(match.1) != format.prefix
            else { return false }
            return (a, b, c) == (x, y, z) || isStepBelow((a, b, c), (x, y, z))
        }
        let hasOwnTags = (named && tags.contains { $0.hasPrefix(format.prefix) }) || spelledTags
        // A sibling package named after the project, beside the project's own named series:
        // release-plz tagged `near-sdk-macros-v5.29.0` half an hour before `near-sdk-v5.29.0`, and
        // near-sdk's 48 `near-sdk-v` tags are its own.
        let ownSeriesTagged = named && tags.contains { $0.hasPrefix(format.prefix) }
        func extendsName(_ last: String) -> Bool {
            let text = last.lowercased(), name = found.name.lowercased()
            guard ownSeriesTagged, text.hasPrefix(name), let next = text.dropFirst(name.count).first, "-_".contains(next)
            else { return false }
            var rest = text.dropFirst(name.count + 1)
            while let end = rest.last, "-_/@".contains(end) { rest = rest.dropLast() }
            if rest.last == "v", rest.dropLast().last.map({ "-_".contains($0) }) ?? true { rest = rest.dropLast() }
            while let end = rest.last, "-_".contains(end) { rest = rest.dropLast() }
            return rest.contains(where: \.isLetter)
        }
        func namesAnotherPackage(_ prefix: String) -> Bool {
            guard hasOwnTags, !found.name.isEmpty else { return false }
            let last = prefix.split(separator: "/").last.map(String.init) ?? prefix
            if prefix != format.prefix, extendsName(last) { return true }
            return !last.lowercased().hasPrefix(found.name.lowercased()) && !spellsName(prefix)
        }
        let prefixes = Set(
            tags.compactMap { tag -> String? in
                guard tag.hasSuffix(version), tag.count >= version.count else { return nil }
                let prefix = String(tag.dropLast(version.count))
                if named, TagHistory.isGeneric(prefix) { return prefix }
                if namesAnotherPackage(prefix) { return nil }
                return isSeriesPrefix(prefix) ? prefix : nil
            })
        // The project's own named series continues to the version held (grpc-js' 160
        // `@grpc/grpc-js@` tags, the newest 1.12.1 the day before its manifest's 1.12.2): a bare tag
        // naming that version is an older release of another package (the native `grpc`'s
        // `v1.12.2` of 2018), not the project's series.
        if named, !prefixes.isEmpty, prefixes.allSatisfy(TagHistory.isGeneric), let (x, y, z) = heldNumbers,
            tags.contains(where: { tag in
                guard tag.hasPrefix(format.prefix), tag.hasSuffix(format.suffix),
                    let own = try? SemanticVersion(
                        parsing: String(tag.dropFirst(format.prefix.count).dropLast(format.suffix.count))),
                    !own.isPrerelease, let a = Int(own.major), let b = Int(own.minor), let c = Int(own.patch)
                else { return false }
                return isStepBelow((a, b, c), (x, y, z))
            })
        {
            return nil
        }
        var series: (prefix: String, tag: String, coming: Bool)
        if prefixes.count == 1, let prefix = prefixes.first {
            series = (prefix, prefix + version, false)
        } else if prefixes.isEmpty, let continued = continuedSeries(coming: version, chosen: format.prefix, named: named, tags: tags) {
            series = (continued.prefix, continued.tag, true)
        } else {
            return nil
        }
        let ownName = !found.name.isEmpty && series.prefix.hasPrefix(found.name)
        return (
            (ownName ? "{project}" + series.prefix.dropFirst(found.name.count) : series.prefix) + "{version}", series.tag,
            held.foundIn, series.coming
        )
    }

    /// The tag series of the application a chart in the repository deploys, for a project whose
    /// own tags name no version: ingress-nginx's Go module has no tag of its name, its chart's
    /// `appVersion: 1.15.1` is `controller-v1.15.1`, one of 110 `controller-v` tags (beside the
    /// chart's own `helm-chart-4.15.1`). Nil unless exactly one prefix names the appVersion and at
    /// least three tags carry it.
    static func chartApplicationSeries(root: URL, tags: [String]) -> (format: String, tag: String, count: Int, chart: String)? {
        var charts: [String] = ["Chart.yaml", "chart/Chart.yaml", "helm/Chart.yaml"]
        for folder in ["charts", "deploy", "deploy/charts", "helm", "deployments/helm"] {
            let names = (try? FileSystem.names(in: root.appendingPathComponent(folder))) ?? []
            charts += names.sorted().filter { !$0.hasPrefix(".") }.map { "\(folder)/\($0)/Chart.yaml" }
        }
        var found: [(prefix: String, tag: String, chart: String)] = []
        for chart in charts {
            let url = root.appendingPathComponent(chart)
            guard FileSystem.statusIfPresent(atPath: url.path, followingLinks: false)?.isRegularFile == true,
                let text = (try? HelmChartFile.read(url, displayPath: chart))?.values["appVersion"]?.text
            else { continue }
            var version = text.trimmingCharacters(in: .whitespaces)
            if version.hasPrefix("v") { version.removeFirst() }
            guard (try? SemanticVersion(parsing: version)) != nil else { continue }
            for tag in tags where tag.hasSuffix(version) && tag.count > version.count {
                let prefix = String(tag.dropLast(version.count))
                if isSeriesPrefix(prefix), !found.contains(where: { $0.prefix == prefix }) {
                    found.append((prefix, tag, chart))
                }
            }
        }
        guard found.count == 1, let series = found.first else { return nil }
        let count = tags.count { $0.hasPrefix(series.prefix) && (try? SemanticVersion(parsing: String($0.dropFirst(series.prefix.count)))) != nil }
        guard count >= 3 else { return nil }
        return (series.prefix + "{version}", series.tag, count, series.chart)
    }

    /// Text a tag series puts before its version: a name ending in `-`, `_`, `/`, `@` or `==`
    /// (langgraph's `checkpoint==4.1.1`, a pip requirement's spelling), then an optional `v`
    /// (`core-v`, `helm-chart-`, `@scope/pkg@`).
    static func isSeriesPrefix(_ prefix: String) -> Bool {
        prefix.wholeMatch(of: /[A-Za-z0-9._@\/-]*([-_\/@]|==)[vV]?/) != nil
    }

    /// The one series (tag prefix) the manifest's version `coming` continues: its tags name the
    /// version one step below (`2.46.2` for 2.46.3; a `2.45.x` for 2.46.0; a `1.x.y` for 2.0.0) and
    /// no tag of it names `coming` or anything above. Nil when the chosen format's tags (`chosen`,
    /// its `v` or none alike when generic) have such a step too, or when two series have one.
    /// Whether `version` is one step below `coming`: its previous patch, a release of the previous
    /// minor line for `x.y.0`, of the previous major for `x.0.0`.
    /// The series named after the folder (`node-v`, `node-`, `node/v`, `node@` for `bindings/node`)
    /// with three releases at least, whose newest names `version` or the one a step below it
    /// (`coming`).
    static func folderSeries(root: URL, version: String, tags: [String]) -> (prefix: String, tag: String, coming: Bool)? {
        let base = root.standardizedFileURL.lastPathComponent
        guard base.count >= 2, let held = try? SemanticVersion(parsing: version), let x = Int(held.major), let y = Int(held.minor),
            let z = Int(held.patch)
        else { return nil }
        for prefix in [base + "-v", base + "-", base + "/v", base + "/", base + "@", base + "_v"] {
            let own = tags.compactMap { tag -> (tag: String, version: SemanticVersion)? in
                guard tag.hasPrefix(prefix), let parsed = try? SemanticVersion(parsing: String(tag.dropFirst(prefix.count))) else { return nil }
                return (tag, parsed)
            }
            guard own.count >= 3, let newest = own.filter({ !$0.version.isPrerelease }).max(by: { $0.version < $1.version }),
                let a = Int(newest.version.major), let b = Int(newest.version.minor), let c = Int(newest.version.patch)
            else { continue }
            if (a, b, c) == (x, y, z) { return (prefix, newest.tag, false) }
            if isStepBelow((a, b, c), (x, y, z)) { return (prefix, newest.tag, true) }
        }
        return nil
    }

    private static func isStepBelow(_ version: (Int, Int, Int), _ coming: (Int, Int, Int)) -> Bool {
        let (a, b, c) = version
        let (x, y, z) = coming
        return (a == x && b == y && c + 1 == z) || (a == x && b + 1 == y && z == 0) || (a + 1 == x && y == 0 && z == 0)
    }

    private static func continuedSeries(
        coming: String, chosen: String, named: Bool, tags: [String]
    ) -> (prefix: String, tag: String)? {
        guard let target = try? SemanticVersion(parsing: coming), !target.isPrerelease,
            let x = Int(target.major), let y = Int(target.minor), let z = Int(target.patch)
        else { return nil }
        var steps: [String: (tag: String, version: (Int, Int, Int))] = [:]
        var reached: Set<String> = []
        for tag in tags {
            guard let match = tag.wholeMatch(of: /(.*?)(\d+)\.(\d+)\.(\d+)/),
                let a = Int(match.2), let b = Int(match.3), let c = Int(match.4)
            else { continue }
            let prefix = String(match.1)
            if (a, b, c) >= (x, y, z) { reached.insert(prefix) }
            guard isStepBelow((a, b, c), (x, y, z)) else { continue }
            if prefix == chosen || (TagHistory.isGeneric(prefix) && TagHistory.isGeneric(chosen)) { return nil }
            let accepted =
                (named && TagHistory.isGeneric(prefix)) || isSeriesPrefix(prefix)
            if accepted, steps[prefix].map({ $0.version < (a, b, c) }) ?? true { steps[prefix] = (tag, (a, b, c)) }
        }
        let candidates = steps.filter { !reached.contains($0.key) }
        guard candidates.count == 1, let (prefix, step) = candidates.first else { return nil }
        return (prefix, step.tag)
    }

    /// The name users know the project by: the package's, unless it is neither a binary nor the
    /// repository and the repository is named after a binary (fd's package `fd-find` ships `fd`).
    package static func preferredName(_ package: String, binaries: [String], repository: String?) -> String {
        guard let repository, !binaries.contains(package), package != repository, binaries.contains(repository)
        else { return package }
        return repository
    }

    /// The repository's name from the `origin` URL (`https://github.com/sharkdp/fd.git` → `fd`),
    /// else the folder's.
    package static func repositoryName(remote: String?, root: URL) -> String? {
        guard let remote else { return root.standardizedFileURL.lastPathComponent }
        var last = remote.split(whereSeparator: { $0 == "/" || $0 == ":" }).last.map(String.init) ?? ""
        if last.hasSuffix(".git") { last.removeLast(4) }
        return last.isEmpty ? nil : last
    }

    /// The files users expect next to the binaries, as they exist at the root: the README, every
    /// license text (`LICENSE-MIT`, `UNLICENSE`, `COPYING`), the changelog and a NOTICE.
    package static func archiveFiles(root: URL) -> [String] {
        let kinds = ["readme", "license", "licence", "copying", "unlicense", "changelog", "notice"]
        let names = ((try? FileSystem.names(in: root)) ?? []).filter { name in
            let lower = name.lowercased()
            return kinds.contains { lower.hasPrefix($0) } && !FileSystem.isDirectory(root.appendingPathComponent(name))
        }
        return names.sorted { a, b in
            let (ra, rb) = (a.lowercased().hasPrefix("readme"), b.lowercased().hasPrefix("readme"))
            return ra != rb ? ra : a < b
        }
    }

    // MARK: Cargo

    private static func cargo(root: URL, into found: inout Findings) {
        let manifest = root.appendingPathComponent("Cargo.toml")
        guard let document = try? TOMLDocument(file: ProjectFile.open(location: manifest)) else { return }
        let workspace = try? CargoWorkspace.load(containing: manifest, projectRoot: root)
        if document.root["package"]?.table?["version"] != nil
            || document.root["workspace"]?.table?["package"]?.table?["version"]?.string != nil
        {
            found.versions.append(("Cargo.toml", nil, nil))
        }
        // A virtual workspace without a shared version: each member's own version is a manifest.
        if document.root["package"] == nil,
            document.root["workspace"]?.table?["package"]?.table?["version"]?.string == nil
        {
            let members = (workspace?.packages ?? []).filter { $0.versionFile == $0.manifest }
            for member in members {
                found.versions.append((CompanionFinder.display(member.manifest, root: root), nil, nil))
            }
            if !members.isEmpty {
                found.versionNotes.append(
                    "A virtual workspace: each member with its own version is listed; remove those you do not tag.")
            }
        }
        // A member crate's config (ripgrep's crates/ignore) ships that crate's binaries, not the workspace's.
        let inside = root.standardizedFileURL.path + "/"
        var packages = (workspace?.packages ?? []).filter { $0.manifest.standardizedFileURL.path.hasPrefix(inside) }
        if document.root["package"] != nil {
            // `cargo build` in a package builds that package and the workspace's `default-members`,
            // not every member: just's `publish = false` helper crates are never built.
            let defaults = (document.root["workspace"]?.table?["default-members"]?.array ?? []).compactMap(\.string)
            let built = Set(
                [manifest.standardizedFileURL.path]
                    + defaults.map {
                        root.appendingPathComponent($0).appendingPathComponent("Cargo.toml").standardizedFileURL.path
                    })
            packages = packages.filter { built.contains($0.manifest.standardizedFileURL.path) }
            if packages.isEmpty, let name = document.root["package"]?.table?["name"]?.string {
                found.binaries += cargoBinaries(of: manifest, name: name)
            }
        }
        for package in packages where !isAuxiliaryCrate(package.manifest.deletingLastPathComponent(), root: root, name: package.name) {
            found.binaries += cargoBinaries(of: package.manifest, name: package.name)
        }
        if !found.binaries.isEmpty {
            // `--locked` with no Cargo.lock fails: cargo would have to write one.
            let lockRoot = workspace?.root ?? root
            let locked = FileSystem.exists(lockRoot.appendingPathComponent("Cargo.lock")) ? " --locked" : ""
            found.build = ("cargo build --release\(locked) --target {target}", "target/{target}/release")
            found.crossNote =
                "cargo builds another (rustup target add TRIPLE) where its linker and C library are installed, or on its own runner (`relctl ci generate`)"
        }
    }

    /// An unpublished crate that tests, benchmarks or shows the project (futures-rs' `futures/tests/macro-tests`
    /// and `examples/functional`, rustls' `ci-bench` and `rustls-bench`): its binaries are not
    /// the project's to ship. A published crate, or an unpublished application, is kept.
    static func isAuxiliaryCrate(_ folder: URL, root: URL, name: String) -> Bool {
        guard MemberDiscovery.isUnpublished(folder) else { return false }
        let top = root.standardizedFileURL.path + "/"
        let relative = folder.standardizedFileURL.path.hasPrefix(top) ? String(folder.standardizedFileURL.path.dropFirst(top.count)) : ""
        // Test runners and demos a library's workspace builds but never ships: prost's
        // `conformance`, rustls' `bogo` (BoringSSL's test suite shim), rayon's `rayon-demo`.
        let words: Set<String> = fixtureFolders.union([
            "bench", "benches", "benchmark", "benchmarks", "fuzz", "xtask", "conformance", "interop", "bogo", "demo", "demos",
        ])
        let pieces = relative.lowercased().split(separator: "/").map(String.init)
            + name.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        return pieces.contains(where: words.contains)
    }

    /// A crate's binaries as Cargo finds them: `[[bin]]` names, then (unless `autobins = false`)
    /// `src/main.rs` (named after the package), `src/bin/NAME.rs` and `src/bin/NAME/main.rs`.
    package static func cargoBinaries(of manifest: URL, name: String) -> [String] {
        guard let document = try? TOMLDocument(file: ProjectFile.open(location: manifest)) else { return [] }
        let folder = manifest.deletingLastPathComponent()
        var names: [String] = []
        var explicitPaths: Set<String> = []
        for bin in document.root["bin"]?.array ?? [] {
            guard let table = bin.table else { continue }
            if let path = table["path"]?.string {
                explicitPaths.insert(folder.appendingPathComponent(path).standardizedFileURL.path)
            }
            names.append(table["name"]?.string ?? name)
        }
        guard document.root["package"]?.table?["autobins"]?.bool != false else { return names }
        let main = folder.appendingPathComponent("src/main.rs")
        if FileSystem.exists(main), !explicitPaths.contains(main.standardizedFileURL.path),
            !names.contains(name)
        {
            names.insert(name, at: 0)
        }
        let binFolder = folder.appendingPathComponent("src/bin")
        for entry in ((try? FileSystem.names(in: binFolder)) ?? []).sorted() {
            let url = binFolder.appendingPathComponent(entry)
            let candidate: (String, URL)? =
                FileSystem.isDirectory(url)
                ? (FileSystem.exists(url.appendingPathComponent("main.rs"))
                    ? (entry, url.appendingPathComponent("main.rs")) : nil)
                : (entry.hasSuffix(".rs") ? (String(entry.dropLast(3)), url) : nil)
            if let (binary, path) = candidate, !explicitPaths.contains(path.standardizedFileURL.path),
                !names.contains(binary)
            {
                names.append(binary)
            }
        }
        return names
    }

    // MARK: npm, Python, Swift

    private static func npm(root: URL, into found: inout Findings) {
        guard let data = (try? ProjectFile.open("package.json", in: root))?.data(),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return }
        if let version = object["version"] as? String {
            if (try? SemanticVersion(parsing: version)) != nil {
                found.versions.append(("package.json", nil, nil))
            } else {
                // date-fns' v2 holds "DON'T CHANGE; IT'S SET AUTOMATICALLY DURING DEPLOYMENT": its
                // publishing sets it from the tag. Listed, `check` refused init's own file.
                found.tagIsTheVersion =
                    "package.json's version (\(QuotedString.basic(version.count > 40 ? version.prefix(40) + "…" : version))) is no version: it is set when the package is published"
            }
        }
        // `bin` entries are scripts npm links on install, not per-platform binaries to archive.
        let bins =
            (object["bin"] as? [String: Any]).map { $0.keys.sorted() }
            ?? ((object["bin"] is String)
                ? [(object["name"] as? String).map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? "bin"]
                : [])
        if !bins.isEmpty {
            found.versionNotes.append(
                "package.json's bin (\(bins.joined(separator: ", "))) is installed by npm from the published package; add [build] only if you also ship native binaries."
            )
        }
    }

    private static func python(root: URL, into found: inout Findings) {
        guard let document = try? TOMLDocument(file: ProjectFile.open("pyproject.toml", in: root)) else {
            return
        }
        let project = document.root["project"]?.table
        if project?["version"]?.string != nil
            || document.root["tool"]?.table?["poetry"]?.table?["version"]?.string != nil
        {
            found.versions.append(("pyproject.toml", nil, nil))
            return
        }
        guard project?["dynamic"]?.array?.contains(.string("version")) == true else {
            // setup.py reading `__version__` from the package (certifi): that file holds the version.
            if project?["version"] == nil, let path = versionModule(root: root, name: project?["name"]?.string) {
                found.versions.append((path, "python", nil))
                found.versionNotes.append("\(path) holds `__version__`, compared by PEP 440 (kind \"python\").")
            }
            return
        }
        let tool = document.root["tool"]?.table
        let hatch = tool?["hatch"]?.table?["version"]?.table
        let pdm = tool?["pdm"]?.table?["version"]?.table
        if let path = hatch?["path"]?.string ?? (pdm?["source"]?.string == "file" ? pdm?["path"]?.string : nil),
            FileSystem.exists(atPath: root.appendingPathComponent(path).path)
        {
            // Kind python: `1.0.0b1` there is PEP 440 and equals tag v1.0.0-beta.1. A file that is
            // no Python module (scrapy's `scrapy/VERSION` holding `2.18.0`) is read by hatch's
            // `pattern` (Python's `(?P<version>…)` spelled as Swift's), else as the file's first word.
            let pattern: String? =
                path.hasSuffix(".py")
                ? nil
                : hatch?["pattern"]?.string.map { $0.replacingOccurrences(of: "(?P<", with: "(?<") }
                    ?? #"\A\s*(?<version>[0-9][^\s]*)"#
            found.versions.append((path, "python", pattern))
            let table = hatch?["path"]?.string != nil ? "[tool.hatch.version] path" : "[tool.pdm.version] path"
            found.versionNotes.append("pyproject.toml reads its version from \(path) (\(table)).")
        } else if let path = maturinManifest(document: document, root: root) {
            // maturin takes a dynamic version from the crate it builds (hypothesis' rust/Cargo.toml).
            if !found.versions.contains(where: { $0.path == path }) { found.versions.append((path, nil, nil)) }
            found.versionNotes.append("pyproject.toml's version is dynamic: maturin reads it from \(path).")
        } else if let (path, kind, why) = setuptoolsDynamicVersion(document: document, root: root) {
            found.versions.append((path, kind, nil))
            found.versionNotes.append("pyproject.toml reads its version from \(path) (\(why)).")
        } else if !versionFromTag(document: document), let path = setupScriptVersionModule(root: root) {
            found.versions.append((path, "python", nil))
            found.versionNotes.append("pyproject.toml's version is dynamic: setup.py imports `__version__` from \(path).")
        } else if !versionFromTag(document: document),
            let path = versionModule(root: root, name: project?["name"]?.string)
        {
            // flit and plain setuptools read `__version__` from the package when no plugin reads the tag.
            found.versions.append((path, "python", nil))
            found.versionNotes.append("\(path) holds `__version__`, compared by PEP 440 (kind \"python\").")
        } else {
            found.tagIsTheVersion = "pyproject.toml's version is dynamic (hatch-vcs, setuptools-scm…): it comes from the git tag"
        }
    }

    /// The Cargo.toml a maturin build takes its version from: `[tool.maturin] manifest-path`, else
    /// the one beside pyproject.toml; nil for another backend or when it holds no version.
    static func maturinManifest(document: TOMLDocument, root: URL) -> String? {
        let system = document.root["build-system"]?.table
        let requires = system?["requires"]?.array?.compactMap(\.string) ?? []
        guard system?["build-backend"]?.string == "maturin" || requires.contains(where: { $0.lowercased().hasPrefix("maturin") })
        else { return nil }
        var path = document.root["tool"]?.table?["maturin"]?.table?["manifest-path"]?.string ?? "Cargo.toml"
        if path.hasPrefix("./") { path.removeFirst(2) }
        guard !path.hasPrefix("/"), !path.split(separator: "/").contains(".."),
            (try? ManifestReaders.read(VersionSource(path: path, kind: "cargo"), root: root)) != nil
        else { return nil }
        return path
    }

    /// Build plugins that take a dynamic version from the git tag.
    static let tagVersionPlugins = [
        "setuptools-scm", "setuptools_scm", "hatch-vcs", "hatch_vcs", "versioningit", "poetry-dynamic-versioning",
        "flit-scm", "flit_scm", "dunamai", "uv-dynamic-versioning", "pbr",
    ]

    /// Whether the build takes its version from the tag: a plugin for it in `[build-system]
    /// requires`, `[tool.hatch.version] source = "vcs"`, `[tool.pdm.version] source = "scm"`, or
    /// a `[tool.setuptools_scm]` table.
    static func versionFromTag(document: TOMLDocument) -> Bool {
        let requires = document.root["build-system"]?.table?["requires"]?.array?.compactMap(\.string) ?? []
        let names = requires.map { requirement in
            String(requirement.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }).lowercased()
        }
        let tool = document.root["tool"]?.table
        return names.contains(where: tagVersionPlugins.contains)
            || tool?["hatch"]?.table?["version"]?.table?["source"]?.string == "vcs"
            || tool?["pdm"]?.table?["version"]?.table?["source"]?.string == "scm"
            || tool?["setuptools_scm"] != nil || tool?["setuptools-scm"] != nil
    }

    /// `[tool.setuptools.dynamic] version`: `{attr = "aiohttp.__version__"}`, the module file
    /// in the folders setuptools finds packages in (`[tool.setuptools.packages.find] where`,
    /// `package-dir`'s root, else the root and `src`: sqlalchemy's `lib/sqlalchemy/__init__.py`),
    /// or `{file = "VERSION"}`. Nil when it names neither, or a file that is not there.
    static func setuptoolsDynamicVersion(document: TOMLDocument, root: URL) -> (path: String, kind: String, why: String)? {
        let setuptools = document.root["tool"]?.table?["setuptools"]?.table
        guard let version = setuptools?["dynamic"]?.table?["version"]?.table else { return nil }
        func regular(_ path: String) -> Bool {
            !path.isEmpty && !path.hasPrefix("/") && !path.split(separator: "/").contains("..")
                && (try? ProjectFile.open(path, in: root))?.isRegularFile == true
        }
        if let file = version["file"]?.string ?? version["file"]?.array?.first?.string {
            let path = file.hasPrefix("./") ? String(file.dropFirst(2)) : file
            guard regular(path) else { return nil }
            let kind = ManifestReaders.kind(forFileName: path) ?? "plain"
            return (path, kind, "[tool.setuptools.dynamic] version file")
        }
        guard let attr = version["attr"]?.string else { return nil }
        var folders: [String] = setuptools?["packages"]?.table?["find"]?.table?["where"]?.array?.compactMap(\.string) ?? []
        if let base = setuptools?["package-dir"]?.table?[""]?.string { folders.append(base) }
        return versionAttributeModule(attr, folders: folders, root: root).map {
            ($0, "python", "[tool.setuptools.dynamic] version attr \(attr)")
        }
    }

    /// The module file `attr` (`flake8.__version__`) names, in `folders` and else the root and
    /// `src`, when it assigns `__version__` a string literal; nil otherwise.
    static func versionAttributeModule(_ attr: String, folders: [String] = [], root: URL, following: Bool = true) -> String? {
        var parts = attr.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } }),
            parts.removeLast() == "__version__"
        else { return nil }
        let module = parts.joined(separator: "/")
        for folder in folders + [".", "src"] {
            let trimmed = folder.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            guard !trimmed.hasPrefix("/"), !trimmed.split(separator: "/").contains("..") else { continue }
            let prefix = trimmed == "." || trimmed.isEmpty ? "" : trimmed + "/"
            for path in ["\(prefix)\(module)/__init__.py", "\(prefix)\(module).py"]
            where (try? ProjectFile.open(path, in: root))?.isRegularFile == true {
                if holdsVersionLiteral(path, root: root) { return path }
                // pipenv's `pipenv/__init__.py` re-exports it: `from pipenv.__version__ import __version__`.
                if following, let imported = importedVersionModule(path, root: root),
                    let found = versionAttributeModule(imported + ".__version__", folders: folders, root: root, following: false)
                {
                    return found
                }
            }
        }
        return nil
    }

    /// The module `path` imports `__version__` from (`from pipenv.__version__ import __version__`).
    static func importedVersionModule(_ path: String, root: URL) -> String? {
        guard let data = (try? ProjectFile.open(path, in: root))?.data(limit: 1 << 20), case .whole(let bytes) = data,
            let match = TextFile.decode(bytes).firstMatch(of: /(?m)^from\s+([A-Za-z_][A-Za-z0-9_.]*)\s+import\s+__version__\b/)
        else { return nil }
        return String(match.1)
    }

    /// The module a `setup.py` imports `__version__` from (mypy's `from mypy.version import
    /// __version__ as version`, beside a pyproject.toml whose version is dynamic), when it assigns
    /// one a string literal.
    static func setupScriptVersionModule(root: URL) -> String? {
        importedVersionModule("setup.py", root: root).flatMap { versionAttributeModule($0 + ".__version__", root: root) }
    }

    /// The Python file a `setup.py` names, as one string (`"src/pkg/version.py"`) or as the
    /// literal pieces of an `os.path.join(…)`, that assigns `__version__`: the first such.
    static func setupScriptVersionFile(root: URL) -> String? {
        guard let data = (try? ProjectFile.open("setup.py", in: root))?.data(limit: 1 << 20), case .whole(let bytes) = data
        else { return nil }
        let text = TextFile.decode(bytes)
        var candidates: [String] = []
        let joined = #/join\(\s*((?:["'][^"'\n]+["']\s*,\s*)+["'][^"'\n]+\.py["'])\s*\)/#
        for match in text.matches(of: joined) {
            let pieces = String(match.1).matches(of: #/["']([^"'\n]+)["']/#).map { String($0.1) }
            candidates.append(pieces.joined(separator: "/"))
        }
        for match in text.matches(of: #/["']([A-Za-z0-9_./-]+/[A-Za-z0-9_]+\.py)["']/#) { candidates.append(String(match.1)) }
        return candidates.first { path in
            !path.hasPrefix("/") && !path.split(separator: "/").contains("..") && path != "setup.py"
                && holdsVersionLiteral(path, root: root)
        }
    }

    /// Whether the module at `path` assigns a string literal to `__version__`, or keeps its version
    /// as a tuple (`version_info = (26, 1, 0)`, `__version__` joined from it): what kind "python" reads.
    static func holdsVersionLiteral(_ path: String, root: URL) -> Bool {
        guard let data = (try? ProjectFile.open(path, in: root))?.data(limit: 4 << 20), case .whole(let bytes) = data
        else { return false }
        let text = TextFile.decode(bytes)
        return text.range(
            of: #"(?m)^__version__\s*(:\s*(str|(typing\.)?Final(\[str\])?)\s*)?=\s*["'][^"'\n]+["'][ \t]*(#.*)?$"#,
            options: .regularExpression) != nil
            || text.range(
                of: #"(?m)^(__version_info__|version_info|VERSION_INFO)[ \t]*=[ \t]*\([ \t]*[0-9]+[ \t]*,"#,
                options: .regularExpression) != nil
    }

    /// The package module holding `__version__ = "…"`: `NAME/__init__.py` or `src/NAME/__init__.py`
    /// for the project's name, else the only such module among the root's folders.
    package static func versionModule(root: URL, name: String?) -> String? {
        func holdsVersion(_ path: String) -> Bool { holdsVersionLiteral(path, root: root) }
        if let name {
            let module = name.lowercased().replacingOccurrences(of: "-", with: "_")
            for path in ["\(module)/__init__.py", "src/\(module)/__init__.py"] where holdsVersion(path) { return path }
        }
        var found: [String] = []
        for folder in [".", "src"] {
            let base = root.appendingPathComponent(folder)
            for entry in ((try? FileSystem.names(in: base)) ?? []).sorted() where !entry.hasPrefix(".") {
                let path = (folder == "." ? "" : "src/") + entry + "/__init__.py"
                if holdsVersion(path) { found.append(path) }
            }
        }
        return found.count == 1 ? found[0] : nil
    }

    /// SwiftPM: `.executable(name: "x", …)` products, else (when the package offers no library,
    /// whose executable targets are then examples and tools) `.executableTarget(name: "x", …)`
    /// targets. One declared inside `#if os(macOS)` (without Linux) is built only there: optional.
    private static func swift(root: URL, into found: inout Findings) {
        guard let data = (try? ProjectFile.open("Package.swift", in: root))?.data() else {
            return
        }
        let manifest = SwiftPackageManifest(TextFile.decode(data))
        var executables = manifest.declarations(#"\.executable\(\s*name:\s*"([^"]+)""#)
        if executables.isEmpty {
            let targets = manifest.declarations(#"\.executableTarget\(\s*name:\s*"([^"]+)""#)
            if manifest.declarations(#"\.library\(\s*name:\s*"([^"]+)""#).isEmpty {
                executables = targets
            } else if !targets.isEmpty {
                found.versionNotes.append(
                    "Package.swift offers libraries; its executable targets (\(targets.map(\.name).joined(separator: ", "))) are no products, so nothing is built for release: add [build] to ship them."
                )
            }
        }
        // A library's test and demo executables are products too (hummingbird's `PerformanceTest`,
        // swift-nio's `NIOPerformanceTester`): nothing its users install.
        if !manifest.declarations(#"\.library\(\s*name:\s*"([^"]+)""#).isEmpty {
            let auxiliary = executables.filter { isAuxiliaryExecutable($0.name) }
            if !auxiliary.isEmpty {
                executables.removeAll { isAuxiliaryExecutable($0.name) }
                found.versionNotes.append(
                    "Package.swift's executable\(auxiliary.count == 1 ? "" : "s") \(auxiliary.map(\.name).joined(separator: ", ")) test\(auxiliary.count == 1 ? "s" : "") or show\(auxiliary.count == 1 ? "s" : "") the libraries, so \(auxiliary.count == 1 ? "it is" : "they are") not listed as binaries: add [build] to ship \(auxiliary.count == 1 ? "it" : "them")."
                )
            }
        }
        let binaries = executables.map(\.name)
        found.binaries += binaries
        found.optionalBinaries += executables.filter { !$0.buildsOnLinux }.map(\.name)
        if !binaries.isEmpty, found.build == nil {
            found.build = ("swift build -c release --product \(binaries[0])", ".build/release")
            if binaries.count > 1 { found.build?.command = "swift build -c release" }
            found.crossNote =
                "`swift build` builds for the machine it runs on, so add another where a job on its own runner builds it (`relctl ci generate`)"
        }
    }

    /// An executable named as a test, benchmark or demo: `PerformanceTest`, `NIOPerformanceTester`,
    /// `swift-format-benchmarks`, `ExampleServer` (words split at case changes, `-` and `_`).
    static func isAuxiliaryExecutable(_ name: String) -> Bool {
        var words: [String] = []
        var current = ""
        var previous: Character?
        for character in name {
            let boundary =
                character == "-" || character == "_"
                || (character.isUppercase && (previous?.isLowercase == true || previous?.isNumber == true))
            if boundary, !current.isEmpty {
                words.append(current.lowercased())
                current = ""
            }
            if character != "-" && character != "_" { current.append(character) }
            previous = character
        }
        if !current.isEmpty { words.append(current.lowercased()) }
        let auxiliary: Set<String> = [
            "test", "tests", "tester", "bench", "benchmark", "benchmarks", "perf", "performance", "example", "examples",
            "demo", "demos", "sample", "samples", "fuzz", "fuzzer",
        ]
        return words.contains(where: auxiliary.contains)
    }

    /// The package's full name where the project's is a shortened one: a scoped npm package
    /// (`@changesets/cli`), whose tags monorepo tools spell `@changesets/cli@3.0.1`; a nested Go
    /// module's folder path.
    private static func packageNames(root: URL, detected: [String]) -> [String] {
        // A Go module in a subfolder is tagged with its folder's path (`cmd/builder/v0.152.0`):
        // Go's own rule for nested modules.
        if detected.contains("go.mod"), let top = Git.repositoryTop(of: root.standardizedFileURL.path),
            root.standardizedFileURL.path.hasPrefix(top + "/")
        {
            var folder = String(root.standardizedFileURL.path.dropFirst(top.count + 1))
            // A major version subfolder (`detectors/aws/ec2/v2`, module path ending in `/v2`) is
            // no part of the tag prefix: Go reads `detectors/aws/ec2/v2.3.0` for it.
            if let last = folder.split(separator: "/").last, last.count >= 2, last.first == "v",
                let major = Int(last.dropFirst()), major >= 2,
                (try? GoModulePath.read(root: root))?.path.hasSuffix("/" + last) == true
            {
                folder = String(folder.dropLast(last.count + 1))
                if folder.isEmpty { return [] }
            }
            return [folder]
        }
        guard detected.contains("package.json"),
            let data = (try? ProjectFile.open("package.json", in: root))?.data(),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let name = object["name"] as? String, name.contains("/")
        else { return [] }
        return [name]
    }

    /// The last element of go.mod's module path without its major-version suffix
    /// (`github.com/derailed/k9s` → `k9s`, `example.com/tool/v2` → `tool`), as `go install` names
    /// the binary.
    package static func goModuleName(root: URL) -> String? {
        guard let module = try? GoModulePath.read(root: root),
            let name = module.basePath.split(separator: "/").last.map(String.init), !name.isEmpty,
            name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }),
            // A vanity path names a host, not the project: cue's `cuelang.org/go`, resty's
            // `resty.dev/v3`. The repository's folder names it then.
            name != "go", !name.contains(".")
        else { return nil }
        return name
    }

    /// setup.cfg's `[metadata] version`, as init lists it.
    package enum SetupConfigVersion: Equatable {
        /// Written out (`4.6.2`) as the file's first `version =` line, the one a regex entry reads.
        case written(String)
        /// `attr: flake8.__version__`, resolved to the module assigning it a literal.
        case attribute(String, path: String)
    }

    /// setup.cfg's `[metadata] version` when it is written out (`4.6.2`, not `file: VERSION`) and is
    /// the file's first `version =` line, or an `attr:` naming a module that holds the literal.
    package static func setupConfigVersion(root: URL) -> SetupConfigVersion? {
        guard let data = (try? ProjectFile.open("setup.cfg", in: root))?.data() else { return nil }
        var section = ""
        for raw in TextFile.decode(data).split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                section = line
                continue
            }
            guard raw.hasPrefix("version"), let equals = line.firstIndex(of: "="),
                line[..<equals].trimmingCharacters(in: .whitespaces) == "version"
            else { continue }
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard section == "[metadata]" else { return nil }
            if value.hasPrefix("attr:") {
                let attr = value.dropFirst(5).trimmingCharacters(in: .whitespaces)
                return versionAttributeModule(attr, root: root).map { .attribute(attr, path: $0) }
            }
            let plain = value.range(of: #"^[0-9]+\.[0-9]+\.[0-9]+$"#, options: .regularExpression) != nil
            return plain ? .written(value) : nil
        }
        return nil
    }

    /// setup.cfg's `[metadata] name` (Twisted's before its pyproject.toml named it), if the file
    /// has one.
    /// setup.py's `setup(name="coverage", …)` as a string literal (coverage.py's folder is
    /// `coveragepy`); a name built by an expression is not taken.
    private static func setupScriptName(root: URL) -> String? {
        guard let data = (try? ProjectFile.open("setup.py", in: root))?.data(limit: 1 << 20), case .whole(let bytes) = data,
            let match = TextFile.decode(bytes).firstMatch(of: #/\bname\s*=\s*["']([A-Za-z0-9][A-Za-z0-9._-]*)["']/#),
            // pre-commit's convention for a hook that installs a binary: a package named
            // `pre_commit_placeholder_package` (typos, 0.0.0), never the project.
            !match.1.hasPrefix("pre_commit_")
        else { return nil }
        return String(match.1)
    }

    private static func setupConfigName(root: URL) -> String? {
        guard let data = (try? ProjectFile.open("setup.cfg", in: root))?.data() else { return nil }
        var inMetadata = false
        for raw in TextFile.decode(data).split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                inMetadata = line == "[metadata]"
                continue
            }
            guard inMetadata, let equals = line.firstIndex(where: { $0 == "=" || $0 == ":" }),
                line[..<equals].trimmingCharacters(in: .whitespaces) == "name"
            else { continue }
            let name = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            let plain = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
            return !name.isEmpty && plain ? name : nil
        }
        return nil
    }

    /// npm's name without its scope. A private root is often named for its role in the repository
    /// (trpc's `root`, lerna's `lerna-monorepo`, pnpm's `monorepo-root`, `@biomejs/monorepo`): that
    /// word names nothing released, so it is dropped, and a name of nothing else gives way to the
    /// folder's. A published package's name is never changed.
    static func packageName(_ name: String, isPrivate: Bool) -> String? {
        let unscoped = name.split(separator: "/").last.map(String.init) ?? name
        guard isPrivate else { return unscoped }
        let roles: Set<String> = ["root", "mono", "monorepo", "workspace", "workspaces", "repository", "repo"]
        let kept = unscoped.split(separator: "-").filter { !roles.contains($0.lowercased()) }
        return kept.isEmpty ? nil : kept.joined(separator: "-")
    }

    /// Where no manifest names the project, the repository does (`origin`'s last path part:
    /// lexical and floating-ui cloned into another folder are still `lexical` and `floating-ui`),
    /// else the folder.
    private static func projectName(root: URL, detected: [String], repository: String? = nil) -> String {
        if detected.contains("Cargo.toml"),
            let document = try? TOMLDocument(file: ProjectFile.open("Cargo.toml", in: root)),
            let name = document.root["package"]?.table?["name"]?.string
        {
            return name
        }
        if detected.contains("package.json"),
            let data = (try? ProjectFile.open("package.json", in: root))?.data(),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let name = object["name"] as? String,
            let chosen = packageName(name, isPrivate: MemberDiscovery.isPrivate(object)),
            // A private package.json without a version holds tools (openai-python's
            // `openai-python-tooling` for pyright): another manifest names the project.
            !(MemberDiscovery.isPrivate(object) && object["version"] == nil && detected.contains { $0 != "package.json" })
        {
            return chosen
        }
        if detected.contains("go.mod"), let name = goModuleName(root: root) { return name }
        if detected.contains("pyproject.toml"),
            let document = try? TOMLDocument(file: ProjectFile.open("pyproject.toml", in: root)),
            let name = document.root["project"]?.table?["name"]?.string
                ?? document.root["tool"]?.table?["poetry"]?.table?["name"]?.string
        {
            return name
        }
        if let name = setupConfigName(root: root) ?? setupScriptName(root: root) { return name }
        // SwiftPM's `Package(name: "swift-snapshot-testing")`, read without running the manifest;
        // a name built by an expression is not a string literal and is not taken.
        if detected.contains("Package.swift"),
            let file = try? ProjectFile.open("Package.swift", in: root), case .whole(let data)? = file.data(limit: 1 << 20),
            let name = SwiftPackageManifest(TextFile.decode(data))
                .declarations(#"Package\(\s*name:\s*"([^"\\]+)""#).first?.name,
            !name.isEmpty, !name.contains("/"), !name.contains("\\")
        {
            return name
        }
        // The name becomes archive and folder names: a folder called `a\b` must not give archives
        // that Windows would unpack into two folders.
        let fallback = repository.flatMap { $0.isEmpty || $0 == "." || $0 == ".." ? nil : $0 } ?? root.lastPathComponent
        return String(
            fallback.map {
                $0 == "\\" || $0 == "/" || ($0.asciiValue.map { $0 < 0x20 } ?? false) ? "-" : $0
            })
    }
}
