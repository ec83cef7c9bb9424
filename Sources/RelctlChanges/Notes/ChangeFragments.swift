import Foundation
import RelctlBasics
import RelctlModel

/// The bump level the project's change fragments call for (`[versioning] fragments`): one file
/// per change, written with the change and removed when the release is made, so the ones in the
/// working tree are the next release's.
///
/// - towncrier: the fragment folder (`[tool.towncrier] directory` in towncrier.toml or
///   pyproject.toml; else `{package_dir}/{package}/newsfragments` when `package` is set; else the
///   first of `changelog.d`, `newsfragments` and `changelog` that exists), files named
///   `ISSUE.TYPE[.COUNTER][.EXT]` (`123.feature.rst`, `+orphan.bugfix.md`). A type of a breaking
///   change or removal calls for a major (a minor below 1.0.0, as a breaking commit does), a
///   feature or a deprecation for a minor, any other type for a patch.
/// - changesets: `.changeset/*.md` (in the project's folder or at the repository's top) whose front
///   matter names the package (its package.json `name` or the project's name) with `major`,
///   `minor` or `patch`; the highest of them gives the level, whatever the commits say, as
///   `changeset version` applies them. A changeset's `major` is a major also below 1.0.0, as
///   `changeset version` makes it.
/// - chango: `changes/unreleased/*.toml` (`[tool.chango] sys_path`), each note keyed by its
///   sections, read as towncrier's types are.
package struct ChangeFragments: Sendable, Equatable {
    package var level: VersionBump.Level
    /// A major taken as written below 1.0.0 (changesets), not read as a minor.
    package var literalMajor: Bool
    /// The fragment that calls for `level` (the first by name), relative to the project root.
    package var file: String
    /// How many fragments count.
    package var count: Int

    /// `found` with one more fragment calling for `level`: the highest level and its first file.
    static func counting(_ found: ChangeFragments?, level: VersionBump.Level, file: String, literalMajor: Bool) -> ChangeFragments {
        guard var current = found else { return ChangeFragments(level: level, literalMajor: literalMajor, file: file, count: 1) }
        current.count += 1
        if current.level < level { (current.level, current.file) = (level, file) }
        return current
    }

    /// The towncrier types that call for a major and a minor; every other type is a patch.
    package static let majorTypes: Set<String> = [
        "breaking", "removal", "removals", "breaking-change", "breaking-changes", "breaking_change", "incompatible",
        "major",
    ]
    package static let minorTypes: Set<String> = [
        "feature", "features", "feat", "added", "deprecation", "deprecations", "deprecated", "minor",
    ]
    /// towncrier's own default types (with the two above it does not name).
    package static let defaultTypes: Set<String> = ["feature", "bugfix", "doc", "removal", "misc", "breaking"]
    /// Where towncrier fragments are looked for when the configuration names no folder.
    package static let defaultFolders = ["changelog.d", "newsfragments", "changelog"]

    /// The fragments `config` reads, nil when it reads none or none is there.
    package static func read(config: RelctlConfig) throws -> ChangeFragments? {
        switch config.versioning.fragments {
        case nil: return nil
        case .towncrier?: return try towncrier(root: config.root)
        case .changesets?:
            return try changesets(
                root: config.root, repository: config.repositoryRoot, names: changesetNames(config: config))
        case .chango?: return try chango(root: config.root)
        case .news?: return try news(root: config.root)
        case .chloggen?: return try chloggen(root: config.root, repository: config.repositoryRoot)
        case .antsibull?: return try antsibull(root: config.root)
        case .releaseFile?: return try releaseFile(root: config.root)
        case .knope?:
            return try changesets(
                root: config.root, repository: config.repositoryRoot, names: knopeNames(config: config),
                literalMajor: false, otherTypes: .patch)
        case .covector?:
            return try changesets(
                root: config.root, repository: config.repositoryRoot, names: packageNames(config: config),
                folder: ".changes")
        }
    }

    /// changesets' prerelease mode (`changeset pre enter rc`): `.changeset/pre.json` with
    /// `"mode": "pre"` and the prerelease's `"tag"`. While it is there (apollo-client's
    /// `release-4.3`), releases are `X.Y.Z-TAG.N`, the counter starting at 0; `changeset pre
    /// exit` sets `"mode": "exit"` and the next release is the final. Nil outside pre mode.
    package static func changesetsPrerelease(config: RelctlConfig) -> String? {
        guard let object = changesetsJSON("pre.json", config: config), object["mode"] as? String == "pre", let tag = object["tag"] as? String,
            !tag.isEmpty, tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        else { return nil }
        return tag
    }

    // MARK: towncrier

    /// The fragment folder and the type names of the towncrier configuration at `root`: nil
    /// folder when it names none; nil types when it lists none.
    package static func towncrierSettings(root: URL) throws -> (folder: String?, types: Set<String>?, file: String?) {
        let settings = try towncrierConfiguration(root: root)
        return (settings.folder, settings.types, settings.file)
    }

    /// towncrier's `removal` type is "Deprecations and Removals" by default (urllib3, twisted):
    /// what a minor release may carry. It is a major only where the project's own name for it
    /// says the removals break (`Removals and backward incompatible breaking changes`).
    static let removalTypes: Set<String> = ["removal", "removals"]

    static func removalBreaks(_ name: String?) -> Bool {
        guard let name = name?.lowercased() else { return false }
        return ["break", "incompatib"].contains { name.contains($0) }
    }

    /// Whether the fragment folder's README describes `type` as breaking: setuptools'
    /// newsfragments/README.rst says "``removal``: Any backwards-compatibility breaking change",
    /// and each of its releases with a removal fragment was a major (81.0.0 … 84.0.0).
    static func readmeSaysBreaks(_ text: String?, type: String) -> Bool {
        guard let text else { return false }
        return text.split(whereSeparator: \.isNewline).contains { line in
            let lower = line.lowercased()
            guard let found = lower.range(of: type),
                lower[..<found.lowerBound].allSatisfy({ " \t-*`'\"".contains($0) }),
                lower[found.upperBound...].first.map({ !$0.isLetter }) ?? false
            else { return false }
            let said = lower[found.upperBound...]
            return removalBreaks(String(said))
                && !["non-break", "not break", "without break", "no break"].contains { said.contains($0) }
        }
    }

    /// `towncrierSettings` and the heading each configured type is given (`name`).
    static func towncrierConfiguration(
        root: URL
    ) throws -> (folder: String?, types: Set<String>?, file: String?, names: [String: String], notes: String?) {
        for name in ["towncrier.toml", "pyproject.toml"] {
            let file = try ProjectFile.open(name, in: root)
            guard file.isRegularFile, let text = try file.text(),
                let document = try? TOMLDocument(text: text, path: name),
                let settings = document.root["tool"]?.table?["towncrier"]?.table
            else { continue }
            // `directory = "CHANGES/"` (aiohttp): the folder without its trailing slash, so paths read `CHANGES/1.feature.rst`.
            var folder = settings["directory"]?.string.map { String($0.reversed().drop { $0 == "/" }.reversed()) }
            if folder == nil, let package = settings["package"]?.string, !package.isEmpty {
                let packageFolder = settings["package_dir"]?.string ?? "."
                folder = (packageFolder == "." ? "" : packageFolder + "/") + package + "/newsfragments"
            }
            var types: Set<String> = []
            var names: [String: String] = [:]
            for entry in settings["type"]?.array ?? [] {
                if let type = entry.table?["directory"]?.string {
                    types.insert(type)
                    names[type] = entry.table?["name"]?.string
                }
            }
            for (type, value) in settings["fragment"]?.table ?? [:] {
                types.insert(type)
                names[type] = value.table?["name"]?.string
            }
            return (folder, types.isEmpty ? nil : types, name, names, settings["filename"]?.string ?? "NEWS.rst")
        }
        return (nil, nil, nil, [:], nil)
    }

    /// The file towncrier writes the released notes into (`filename`, `NEWS.rst` when the
    /// configuration names none); nil without a towncrier configuration.
    package static func towncrierNotes(root: URL) throws -> String? {
        try towncrierConfiguration(root: root).notes
    }

    /// The towncrier fragment folder at `root` (configured, else the first default that exists).
    package static func towncrierFolder(root: URL) throws -> String? {
        let settings = try towncrierSettings(root: root)
        if let folder = settings.folder { return folder }
        return try defaultFolders.first { try ProjectFile.open($0, in: root).isDirectory }
    }

    static func towncrier(root: URL) throws -> ChangeFragments? {
        let settings = try towncrierConfiguration(root: root)
        guard
            let folder = try settings.folder
                ?? defaultFolders.first(where: { try ProjectFile.open($0, in: root).isDirectory })
        else {
            return nil
        }
        let directory = try ProjectFile.open(folder, in: root, what: "the towncrier fragment folder")
        guard directory.isDirectory else { return nil }
        let known = settings.types ?? defaultTypes.union(majorTypes).union(minorTypes)
        var found: ChangeFragments?
        let names = try FileSystem.names(in: directory.location).sorted()
        lazy var readme = names.first { $0.lowercased().hasPrefix("readme") }.flatMap {
            try? ProjectFile.open(folder + "/" + $0, in: root)
        }
        .flatMap { file -> String? in
            guard file.isRegularFile, case .whole(let data)? = file.data(limit: 64 * 1024) else { return nil }
            return TextFile.decode(data)
        }
        for name in names where !name.hasPrefix(".") {
            guard let type = fragmentType(of: name, known: known) else { continue }
            let level: VersionBump.Level =
                removalTypes.contains(type)
                ? (removalBreaks(settings.names[type]) || readmeSaysBreaks(readme, type: type) ? .major : .minor)
                : majorTypes.contains(type) ? .major : minorTypes.contains(type) ? .minor : .patch
            let path = folder + "/" + name
            found = Self.counting(found, level: level, file: path, literalMajor: false)
        }
        return found
    }

    /// The type of a towncrier fragment file name (`123.feature.rst` → `feature`): the last
    /// dot-separated part after the first that names a known type; nil for other files.
    package static func fragmentType(of name: String, known: Set<String>) -> String? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2 else { return nil }
        for index in stride(from: parts.count - 1, through: 1, by: -1) where known.contains(parts[index]) {
            return parts[index]
        }
        return nil
    }

    // MARK: release file

    /// The release files looked for at the project's root, in this order.
    package static let releaseFileNames = ["RELEASE.md", "RELEASE.rst"]

    /// The level a release file's text calls for: its first line, or a line of the front matter
    /// it opens with (`---`), saying `release type: minor` (autopub; `Release type: patch` in its
    /// older form) or `RELEASE_TYPE: minor` (hypothesis). A file that opens otherwise is no
    /// release file (many projects' RELEASE.md tells how to release), and says nothing.
    package static func releaseFileLevel(_ text: String) -> VersionBump.Level? {
        let lines = text.fileLines.prefix(60).map { $0.trimmingBlanks(newlines: true) }.filter { !$0.isEmpty }
        guard let first = lines.first else { return nil }
        let candidates = first == "---" ? Array(lines.dropFirst().prefix { $0 != "---" }) : [first]
        for line in candidates {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].lowercased().replacingOccurrences(of: "_", with: " ")
                .split(separator: " ").joined(separator: " ")
            guard key == "release type" else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                .trimmingCharacters(in: CharacterSet(charactersIn: "\"'")).lowercased()
            guard let level = VersionBump.Level(rawValue: value), level != .prerelease else { return nil }
            return level
        }
        return nil
    }

    /// The release file at `root` and the level it calls for; nil when there is none (no change
    /// since the release that removed it) or it names no level.
    package static func releaseFile(root: URL) throws -> ChangeFragments? {
        for name in releaseFileNames {
            let file = try ProjectFile.open(name, in: root, what: "the release file")
            guard file.isRegularFile, case .whole(let data)? = file.data(limit: 256 * 1024),
                let level = releaseFileLevel(TextFile.decode(data))
            else { continue }
            return ChangeFragments(level: level, literalMajor: true, file: name, count: 1)
        }
        return nil
    }

    /// Whether pyproject.toml at `root` configures autopub (`[tool.autopub]`, strawberry's), whose
    /// releases are what the pull request's `RELEASE.md` says.
    package static func autopubConfigured(root: URL) -> Bool {
        guard let file = try? ProjectFile.open("pyproject.toml", in: root), file.isRegularFile, let text = try? file.text(),
            let document = try? TOMLDocument(text: text, path: "pyproject.toml")
        else { return false }
        return document.root["tool"]?.table?["autopub"]?.table != nil
    }

    // MARK: chango

    /// chango's folder of unreleased change notes: `{sys_path}/unreleased` from `[tool.chango]`
    /// in pyproject.toml (`sys_path = "changes"`, python-telegram-bot's), else
    /// `changes/unreleased`. Nil when pyproject.toml configures no chango.
    package static func changoFolder(root: URL) throws -> String? {
        let file = try ProjectFile.open("pyproject.toml", in: root)
        guard file.isRegularFile, let text = try file.text(),
            let document = try? TOMLDocument(text: text, path: "pyproject.toml"),
            let settings = document.root["tool"]?.table?["chango"]?.table
        else { return nil }
        let base = settings["sys_path"]?.string.map { String($0.reversed().drop { $0 == "/" }.reversed()) } ?? "changes"
        // A folder outside the project is none of its notes (ProjectFile refuses it all the same).
        guard !base.hasPrefix("/"), !base.split(separator: "/").contains("..") else { return nil }
        return (base.isEmpty || base == "." ? "" : base + "/") + "unreleased"
    }

    /// The change notes in chango's unreleased folder: each TOML file's top-level keys name its
    /// sections (`breaking`, `features`, `deprecations`, `bugfixes`, `internal`…), a breaking
    /// section calling for a major, a feature or deprecation for a minor, any other for a patch.
    static func chango(root: URL) throws -> ChangeFragments? {
        guard let folder = try changoFolder(root: root) else { return nil }
        let directory = try ProjectFile.open(folder, in: root, what: "chango's unreleased folder")
        guard directory.isDirectory else { return nil }
        var found: ChangeFragments?
        for name in try FileSystem.names(in: directory.location).sorted().prefix(5_000)
        where name.hasSuffix(".toml") && !name.hasPrefix(".") {
            let path = folder + "/" + name
            let file = try ProjectFile.open(path, in: root, what: "a chango change note")
            guard file.isRegularFile, case .whole(let data)? = file.data(limit: 256 * 1024),
                let document = try? TOMLDocument(text: TextFile.decode(data), path: path)
            else { continue }
            let sections = document.root.compactMap { key, value -> String? in
                guard let text = value.string, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
                return key.lowercased()
            }
            guard !sections.isEmpty else { continue }
            let level: VersionBump.Level =
                sections.contains(where: majorTypes.contains)
                ? .major : sections.contains(where: minorTypes.contains) ? .minor : .patch
            found = Self.counting(found, level: level, file: path, literalMajor: false)
        }
        return found
    }

    // MARK: rever's news

    /// Whether `news/TEMPLATE` is rever's (a `### ` section holding `* <news item>`): the folder
    /// of news files conda's projects keep.
    package static func newsTemplate(root: URL) -> Bool {
        guard let file = try? ProjectFile.open("news/TEMPLATE", in: root), file.isRegularFile,
            case .whole(let data)? = file.data(limit: 64 * 1024)
        else { return false }
        let text = TextFile.decode(data)
        return text.contains("### ") && text.contains("<news item>")
    }

    /// The news files in `news/` (all but TEMPLATE and hidden files): each `### ` section holding
    /// an entry (a `* ` line other than the template's `* <news item>`) names its kind;
    /// Enhancements and Deprecations call for a minor, a breaking section for a major, any other
    /// (Bug fixes, Docs, Other) for a patch.
    static func news(root: URL) throws -> ChangeFragments? {
        guard newsTemplate(root: root) else { return nil }
        let directory = try ProjectFile.open("news", in: root, what: "rever's news folder")
        guard directory.isDirectory else { return nil }
        var found: ChangeFragments?
        for name in try FileSystem.names(in: directory.location).sorted().prefix(5_000)
        where name != "TEMPLATE" && !name.hasPrefix(".") {
            let path = "news/" + name
            let file = try ProjectFile.open(path, in: root, what: "a news file")
            guard file.isRegularFile, case .whole(let data)? = file.data(limit: 256 * 1024) else { continue }
            var section = ""
            var sections: Set<String> = []
            for line in TextFile.decode(data).fileLines {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("#") {
                    section = trimmed.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces).lowercased()
                } else if trimmed.hasPrefix("* ") || trimmed.hasPrefix("- "), !trimmed.contains("<news item>"), !section.isEmpty {
                    sections.insert(section)
                }
            }
            guard !sections.isEmpty else { continue }
            let words = sections.map { $0.split(separator: " ").first.map(String.init) ?? $0 }
            let level: VersionBump.Level =
                words.contains(where: { majorTypes.contains($0) }) ? .major
                : words.contains(where: { minorTypes.contains($0) || $0 == "enhancements" || $0 == "enhancement" }) ? .minor
                : .patch
            found = Self.counting(found, level: level, file: path, literalMajor: false)
        }
        return found
    }

    // MARK: antsibull-changelog

    /// Whether `root` keeps antsibull-changelog's fragments: `changelogs/config.yaml` beside a
    /// `changelogs/fragments/` folder (Ansible collections: community.docker, kubernetes.core).
    package static func antsibullFolder(root: URL) -> Bool {
        (try? ProjectFile.open("changelogs/config.yaml", in: root))?.isRegularFile == true
            && (try? ProjectFile.open("changelogs/fragments", in: root))?.isDirectory == true
    }

    /// The section keys of antsibull-changelog's fragments and the level each calls for; any
    /// other key (`trivial`, `doc_changes`) calls for none. `major_changes` are large features,
    /// not breaking ones (Ansible's collection versioning makes a major of breaking changes and
    /// removals only): community.hashi_vault released its `major_changes` note as 6.1.0.
    static let antsibullLevels: [String: VersionBump.Level] = [
        "breaking_changes": .major, "major_changes": .minor, "removed_features": .major,
        "minor_changes": .minor, "deprecated_features": .minor,
        "bugfixes": .patch, "security_fixes": .patch, "known_issues": .patch,
    ]

    /// The fragments in `changelogs/fragments/` (`.yml`/`.yaml`, hidden files aside): the highest
    /// level among each one's top-level section keys holding an entry (`minor_changes:` then
    /// `  - docker_container - add …`); a fragment of `trivial:` entries alone counts for nothing.
    static func antsibull(root: URL) throws -> ChangeFragments? {
        guard antsibullFolder(root: root) else { return nil }
        let directory = try ProjectFile.open("changelogs/fragments", in: root, what: "antsibull-changelog's fragments")
        guard directory.isDirectory else { return nil }
        var found: ChangeFragments?
        for name in try FileSystem.names(in: directory.location).sorted().prefix(5_000)
        where (name.hasSuffix(".yml") || name.hasSuffix(".yaml")) && !name.hasPrefix(".") {
            let path = "changelogs/fragments/" + name
            let file = try ProjectFile.open(path, in: root, what: "a changelog fragment")
            guard file.isRegularFile, case .whole(let data)? = file.data(limit: 256 * 1024) else { continue }
            var key: String?
            var level: VersionBump.Level?
            for line in TextFile.decode(data).fileLines {
                if let first = line.first, first != " ", first != "\t", first != "#", first != "-", let colon = line.firstIndex(of: ":") {
                    key = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
                    // `bugfixes: [an entry]` on one line.
                    let rest = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    if !rest.isEmpty, !rest.hasPrefix("#"), rest != "[]", let found = key.flatMap({ antsibullLevels[$0] }) {
                        level = max(level ?? found, found)
                    }
                } else if line.trimmingCharacters(in: .whitespaces).hasPrefix("-"), let found = key.flatMap({ antsibullLevels[$0] }) {
                    level = max(level ?? found, found)
                }
            }
            if let level { found = Self.counting(found, level: level, file: path, literalMajor: false) }
        }
        return found
    }

    // MARK: chloggen

    /// The folder holding OpenTelemetry's chloggen entries: `.chloggen/` with its `TEMPLATE.yaml`
    /// or `config.yaml`, in `root` or at the top of its repository (a workspace member's).
    package static func chloggenFolder(root: URL, repository: URL? = nil) -> URL? {
        for location in [root] + (repository.map { [$0] } ?? []) {
            for name in [".chloggen/TEMPLATE.yaml", ".chloggen/config.yaml"]
            where (try? ProjectFile.open(name, in: location))?.isRegularFile == true {
                return location
            }
        }
        return nil
    }

    /// The entries in `.chloggen/` (all `.yaml` files but TEMPLATE.yaml and config.yaml): each
    /// `change_type:` names its level: `breaking` a major (a minor below 1.0.0, as a breaking
    /// commit), `enhancement`, `new_component` and `deprecation` a minor, `bug_fix` a patch.
    static func chloggen(root: URL, repository: URL?) throws -> ChangeFragments? {
        guard let top = chloggenFolder(root: root, repository: repository) else { return nil }
        let directory = try ProjectFile.open(".chloggen", in: top, what: "chloggen's folder")
        guard directory.isDirectory else { return nil }
        var found: ChangeFragments?
        for name in try FileSystem.names(in: directory.location).sorted().prefix(5_000)
        where (name.hasSuffix(".yaml") || name.hasSuffix(".yml")) && !name.hasPrefix(".")
            && !["TEMPLATE.yaml", "config.yaml"].contains(name)
        {
            let path = ".chloggen/" + name
            let file = try ProjectFile.open(path, in: top, what: "a chloggen entry")
            guard file.isRegularFile, case .whole(let data)? = file.data(limit: 256 * 1024) else { continue }
            guard
                let line = TextFile.decode(data).fileLines.first(where: { $0.hasPrefix("change_type:") }),
                case let value = line.dropFirst("change_type:".count).split(separator: "#").first ?? "",
                case let type = value.trimmingCharacters(in: CharacterSet(charactersIn: " \t'\"")).lowercased(),
                !type.isEmpty
            else { continue }
            let level: VersionBump.Level =
                type == "breaking" ? .major : ["enhancement", "new_component", "deprecation"].contains(type) ? .minor : .patch
            found = Self.counting(found, level: level, file: path, literalMajor: false)
        }
        return found
    }

    // MARK: changesets

    /// The names a changeset may give the project: its package.json `name` and its own name.
    static func packageNames(config: RelctlConfig) -> Set<String> {
        var names: Set<String> = [config.project.name]
        if let name = packageName(at: "package.json", root: config.root) { names.insert(name) }
        return names
    }

    /// `packageNames` and the names of the package.json files the project's `[[version]]` lists: a
    /// changeset naming any of them counts (openai-agents-js tags one series `v{version}` over
    /// five packages, and its changesets name `'@openai/agents-core': patch`).
    static func changesetNames(config: RelctlConfig) -> Set<String> {
        var names = packageNames(config: config)
        for source in config.versions.prefix(100)
        where source.kind == "npm" && source.path.hasSuffix("/package.json") {
            if let name = packageName(at: source.path, root: config.root) { names.insert(name) }
        }
        return names
    }

    /// The names a knope change file gives the project: the packages of knope.toml (the
    /// project's folder or the repository's top, `knopePackages`) versioned in the project's
    /// folder, `default` for a lone `[package]` there, and the project's own name.
    static func knopeNames(config: RelctlConfig) -> Set<String> {
        var names: Set<String> = [config.project.name]
        let root = config.root.standardizedFileURL
        let top = config.repositoryRoot?.standardizedFileURL ?? root
        for location in root == top ? [root] : [root, top] {
            guard let packages = knopePackages(in: location) else { continue }
            let folder = root.path == location.path ? "" : String(root.path.dropFirst(location.path.count + 1))
            // knope's lone `[package]` is the project at knope.toml's folder, whatever it versions.
            for (name, folders) in packages where folders.contains(folder) || (name == "default" && folder.isEmpty) {
                names.insert(name)
            }
            return names
        }
        return names
    }

    /// knope.toml's packages in `location`, each with the folders of its `versioned_files`
    /// manifests (a `dependency` entry, a lock file or a regex file is none): `[packages.NAME]`,
    /// or a lone `[package]` as `default`, the name its change files give it. Nil without one.
    package static func knopePackages(in location: URL) -> [String: Set<String>]? {
        guard let file = try? ProjectFile.open("knope.toml", in: location), file.isRegularFile,
            let document = try? TOMLDocument(file: file)
        else { return nil }
        var tables: [String: [String: TOMLNode]] = [:]
        if case .table(let package)? = document.root["package"] { tables["default"] = package }
        if case .table(let packages)? = document.root["packages"] {
            for (name, node) in packages.sorted(by: { $0.key < $1.key }).prefix(500) { if case .table(let package) = node { tables[name] = package } }
        }
        return tables.mapValues { package in
            guard case .array(let files)? = package["versioned_files"] else { return [] }
            var folders: Set<String> = []
            for entry in files.prefix(100) {
                let path: String
                switch entry {
                case .string(let text): path = text
                case .table(let table):
                    guard table["dependency"] == nil, table["regex"] == nil, case .string(let text)? = table["path"] else { continue }
                    path = text
                default: continue
                }
                let parts = path.split(separator: "/").map(String.init).filter { $0 != "." }
                guard let last = parts.last, knopeManifests.contains(last), !parts.contains("..") else { continue }
                folders.insert(parts.dropLast().joined(separator: "/"))
            }
            return folders
        }
    }

    /// The versioned files that are a package's own manifest (not a lock file).
    static let knopeManifests: Set<String> = [
        "Cargo.toml", "package.json", "pyproject.toml", "go.mod", "pubspec.yaml", "pom.xml", "gleam.toml", "deno.json",
        "deno.jsonc", "tauri.conf.json",
    ]

    static func packageName(at path: String, root: URL) -> String? {
        guard let file = try? ProjectFile.open(path, in: root), file.isRegularFile,
            case .whole(let data)? = file.data(limit: 1 << 20),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return object["name"] as? String
    }

    /// The folder holding changesets for a project at `root`: its own `.changeset`, else the
    /// repository's top's (a workspace member's, or a project in a member folder of a changesets
    /// repository: biome's `packages/@biomejs/biome`). `repository` is the workspace's repository
    /// top when known; else the top is found from `root`.
    package static func changesetFolder(
        root: URL, repository: URL?, folder: String = ".changeset"
    ) throws -> (root: URL, prefix: String)? {
        if try ProjectFile.open(folder, in: root).isDirectory { return (root, "") }
        let top = Git.repositoryTop(of: root.standardizedFileURL.path).flatMap { AbsolutePath(absolute: $0)?.url }
        let repository = repository ?? top
        guard let repository, repository.standardizedFileURL.path != root.standardizedFileURL.path,
            try ProjectFile.open(folder, in: repository).isDirectory
        else { return nil }
        let relative = String(root.standardizedFileURL.path.dropFirst(repository.standardizedFileURL.path.count))
        let depth = relative.split(separator: "/").count
        return (repository, String(repeating: "../", count: depth))
    }

    /// A JSON object file of `.changeset/` (`config.json`, `pre.json`) under `fragments =
    /// "changesets"`, read through the project's confined reader, at most 1 MiB; nil otherwise.
    package static func changesetsJSON(_ name: String, config: RelctlConfig) -> [String: Any]? {
        guard config.versioning.fragments == .changesets,
            let (top, _) = try? changesetFolder(root: config.root, repository: config.repositoryRoot),
            let file = try? ProjectFile.open(".changeset/" + name, in: top, what: "changesets' " + name),
            file.isRegularFile, case .whole(let data)? = file.data(limit: 1 << 20)
        else { return nil }
        return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    }

    /// The names of changesets' `linked` group holding this package (`.changeset/config.json`:
    /// `"linked": [["@emotion/react", "@emotion/styled", …]]`), a `*` in a name matching any
    /// text; nil when none holds it.
    package static func changesetsLinked(config: RelctlConfig) -> [String]? {
        guard let object = changesetsJSON("config.json", config: config), let groups = object["linked"] as? [[String]]
        else { return nil }
        let own = packageNames(config: config).filter { !$0.isEmpty }
        return groups.first { group in group.contains { pattern in own.contains { matches($0, pattern) } } }
    }

    /// Whether changesets never releases this package: its name matches `ignore`, or it is
    /// private and `privatePackages` says so outright (`false`, or `"tag": false`; the default
    /// is left alone, since apollo-client publishes its private root by a script of its own).
    package static func changesetsNeverReleases(config: RelctlConfig, isPrivate: Bool) -> String? {
        guard let object = changesetsJSON("config.json", config: config) else { return nil }
        let names = packageNames(config: config).filter { !$0.isEmpty }
        if let ignore = object["ignore"] as? [String],
            let pattern = ignore.first(where: { pattern in names.contains { matches($0, pattern) } })
        {
            return "changesets' config ignores it (`\(pattern)`)"
        }
        if isPrivate {
            if object["privatePackages"] as? Bool == false { return "private, and changesets' `privatePackages` is false" }
            if let table = object["privatePackages"] as? [String: Any], table["tag"] as? Bool == false {
                return "private, and changesets' `privatePackages` tags none"
            }
        }
        return nil
    }

    /// Whether a package name matches a changesets pattern (`@tiptap/*`: `*` any text, `**` too).
    package static func matches(_ name: String, _ pattern: String) -> Bool {
        guard pattern.contains("*") else { return name == pattern }
        let pieces = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        var rest = name[...]
        for (index, piece) in pieces.enumerated() {
            if index == 0 {
                guard rest.hasPrefix(piece) else { return false }
                rest = rest.dropFirst(piece.count)
            } else if index == pieces.count - 1 {
                return piece.isEmpty || rest.hasSuffix(piece)
            } else if piece.isEmpty {
                // `**` (zag's `"fixed": [["@zag-js/**"]]`): an empty piece between two stars
                // matches anywhere (`range(of: "")` finds nothing).
                continue
            } else if let found = rest.range(of: piece) {
                rest = rest[found.upperBound...]
            } else {
                return false
            }
        }
        return rest.isEmpty
    }

    /// The changesets naming any package a linked group's patterns match: the group's level.
    static func changesetsLevel(config: RelctlConfig, matching patterns: [String]) throws -> ChangeFragments? {
        guard let (top, prefix) = try changesetFolder(root: config.root, repository: config.repositoryRoot) else { return nil }
        let directory = try ProjectFile.open(".changeset", in: top)
        var found: ChangeFragments?
        for name in try FileSystem.names(in: directory.location).sorted()
        where name.hasSuffix(".md") && name.lowercased() != "readme.md" && !name.hasPrefix(".") {
            let path = ".changeset/" + name
            let file = try ProjectFile.open(path, in: top, what: "a changeset")
            guard file.isRegularFile, let text = try file.text() else { continue }
            let named = Set(
                text.matches(of: #/(?m)^\s*["']?([^"':\n]+)["']?\s*:/#).map { String($0.1).trimmingCharacters(in: .whitespaces) }
                    .filter { candidate in patterns.contains { matches(candidate, $0) } })
            guard !named.isEmpty, let level = changesetLevel(text, names: named) else { continue }
            if found == nil || found!.level < level {
                found = ChangeFragments(level: level, literalMajor: true, file: prefix + path, count: 1)
            }
        }
        return found
    }

    /// The changesets (or covector's change files, `folder` `.changes`) naming one of `names`.
    /// `otherTypes`: the level of a value that names no level (knope's custom change types).
    static func changesets(
        root: URL, repository: URL?, names: Set<String>, folder: String = ".changeset", literalMajor: Bool = true,
        otherTypes: VersionBump.Level? = nil
    ) throws -> ChangeFragments? {
        guard let (top, prefix) = try changesetFolder(root: root, repository: repository, folder: folder) else {
            return nil
        }
        let directory = try ProjectFile.open(folder, in: top)
        var found: ChangeFragments?
        for name in try FileSystem.names(in: directory.location).sorted()
        where name.hasSuffix(".md") && name.lowercased() != "readme.md" && !name.hasPrefix(".") {
            let path = folder + "/" + name
            let file = try ProjectFile.open(path, in: top, what: "a changeset")
            guard file.isRegularFile, let text = try file.text() else { continue }
            guard let level = changesetLevel(text, names: names, otherTypes: otherTypes) else { continue }
            found = Self.counting(found, level: level, file: prefix + path, literalMajor: literalMajor)
        }
        return found
    }

    /// The highest level a changeset's front matter gives any of `names` (`"@scope/pkg": minor`;
    /// covector's `"tauri": patch:bug`, the level before the tag).
    package static func changesetLevel(
        _ text: String, names: Set<String>, otherTypes: VersionBump.Level? = nil
    ) -> VersionBump.Level? {
        let lines = text.fileLines.map {
            $0.trimmingBlanks(newlines: true)
        }
        guard lines.first == "---" else { return nil }
        var level: VersionBump.Level?
        for line in lines.dropFirst() {
            if line == "---" { break }
            // The name ends at its closing quote when quoted (`"@scope/pkg"` holds no colon, but
            // covector's value does: `patch:bug`), else at the first colon.
            var colon = line.firstIndex(of: ":")
            if let quote = line.first, quote == "\"" || quote == "'",
                let close = line.dropFirst().firstIndex(of: quote)
            {
                colon = line[close...].firstIndex(of: ":")
            }
            guard let colon else { continue }
            let unquote = { (text: Substring) in
                text.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            }
            let name = unquote(line[..<colon])
            let value = unquote(line[line.index(after: colon)...]).split(separator: ":").first.map(String.init) ?? ""
            guard names.contains(name), !value.isEmpty,
                let found = VersionBump.Level(rawValue: value).map({ $0 == .prerelease ? nil : $0 }) ?? otherTypes
            else { continue }
            if level == nil || level! < found { level = found }
        }
        return level
    }
}
