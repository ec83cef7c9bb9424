import Foundation
import RelctlBasics
import RelctlModel

/// `relctl checksum`: hashes the archives in folders (or given files) and writes
/// `NAME.<alg>`, the combined `<ALG>SUMS` and `manifest.json` next to them. This is CI's merge
/// step, so it relies on nothing but the archives' names and what is already in the folder.
public enum ChecksumWriter {
    /// The folder used when no path is given.
    public static let defaultDirectory = RelctlConfig.distFolderName

    /// Hashes everything first and writes only once all inputs are known good, each file
    /// atomically. A folder is a full rebuild of its lists; files given one by one are merged
    /// into the lists already there (entries whose files are gone are dropped).
    public static func run(
        paths: [String], algorithm: ChecksumAlgorithm, config: RelctlConfig, context: Context, jobs: Int? = nil
    ) async throws -> ChecksumReport {
        let groups = try collect(paths: paths, config: config, context: context)
        // What killed runs left in these folders (checksum files in the making) goes first.
        for directory in Set(groups.map(\.directory)) { Temporaries.reclaim(in: directory, console: context.console) }
        Temporaries.reclaimScratch(console: context.console)
        // Every folder is hashed before anything is planned or written. The records are compact
        // (`HashedFile`) and go once their folder is planned (issue 31: 100,000 archives).
        var hashed: [HashedFiles?] = []
        for group in groups {
            hashed.append(
                try await FileHasher.hashFiles(
                    named: group.names + group.sboms + group.packages, in: group.directory,
                    sha512: algorithm == .sha512, jobs: jobs))
        }
        var plans: [Plan] = []
        for (index, group) in groups.enumerated() {
            let digests = GroupDigests(group: group, files: hashed[index]!)
            hashed[index] = nil
            plans.append(
                try await plan(group, digests: digests, algorithm: algorithm, config: config, context: context))
        }
        for plan in plans { try write(plan, algorithm: algorithm) }
        return ChecksumReport(
            algorithm: algorithm,
            folders: plans.map { plan in
                ChecksumReport.Folder(
                    directory: plan.group.shown, sums: algorithm.sumsFileName, manifest: ReleaseManifest.fileName,
                    hashed: plan.group.names, release: plan.manifest)
            })
    }

    /// `relctl release`'s checksum step: the combined file and `manifest.json` for archives this
    /// run just wrote, from the digests their write streams computed. Nothing is read again and no
    /// name is parsed back; the `.sha256` files were written by the packager already. `others` are
    /// more files of this release to list (the installers), with their digests.
    package static func writeRelease(
        _ archives: [PackagedArtifact], identity: ReleaseIdentity, algorithm: ChecksumAlgorithm,
        in directory: URL, others: [ChecksumFile.Entry] = [], packages: [Artifact] = [],
        listedInManifest: [Artifact] = []
    ) throws -> ChecksumSet {
        var entries: [ChecksumFile.Entry] = []
        for archive in archives {
            guard let entry = archive.artifact.checksumEntry(algorithm) else {
                throw ChecksumError.noDigest(path: archive.path ?? archive.name, algorithm: algorithm.rawValue)
            }
            entries.append(entry)
        }
        // SBOMs and .deb/.rpm packages are listed (and so signed) with the archives, but get no
        // sidecar of their own and are not archives in manifest.json. Both are always hashed with
        // both algorithms.
        // The npm packages and MSI installers are listed too, and are artifacts of manifest.json beside
        // the archives (formats `npm` and `msi`): the archives' readers leave npm out
        // (`ReleaseManifest.archives`); a channel (winget) finds the MSIs there.
        let listed = (archives.compactMap(\.sbom) + packages + listedInManifest).compactMap {
            $0.checksumEntry(algorithm)
        }
        let sums = ChecksumFile(entries: entries + listed + others).sorted
        if algorithm != .sha256 {
            for entry in entries {
                try writeSidecar(
                    for: directory.appendingPathComponent(entry.name), digest: entry.digest, algorithm: algorithm)
            }
        }
        let sumsFile = directory.appendingPathComponent(algorithm.sumsFileName)
        try AtomicFile.write(sums.render(), to: sumsFile)
        var manifest = releaseManifest(archives, identity: identity)
        manifest.upsert(listedInManifest.map(\.manifestEntry))
        let registryPackages = packages.filter { $0.kind == .wheel }.map(\.manifestEntry)
        if !registryPackages.isEmpty { manifest.packages = registryPackages.sorted { bytewiseLess($0.name, $1.name) } }
        try manifest.write(in: directory)
        return ChecksumSet(algorithm: algorithm, sumsFile: sumsFile, manifest: manifest)
    }

    /// The `manifest.json` of a release's archives, as the checksum stage writes it (the
    /// installer stage reads the same value before the list is written).
    package static func releaseManifest(_ archives: [PackagedArtifact], identity: ReleaseIdentity) -> ReleaseManifest {
        var manifest = ReleaseManifest(
            project: identity.project, tag: identity.tag, version: identity.version.description, commit: identity.commit
        )
        manifest.upsert(archives.map(\.manifestEntry))
        return manifest
    }

    /// Archives to hash in one folder.
    package struct Group {
        package var directory: URL
        package var shown: String
        /// Sorted bytewise.
        package var names: [String]
        /// True when the whole folder was scanned (a full rebuild).
        package var isScan: Bool
        /// The archives' CycloneDX SBOMs (`NAME.cdx.json`) found next to them: listed in the
        /// combined file (so they are signed with it), but not artifacts of their own.
        package var sboms: [String] = []
        /// `.deb`/`.rpm` files found in a scanned folder; only this release's are listed (`plan`).
        package var packages: [String] = []
    }

    /// The digests of one group's files: its archives, then its SBOMs, then its packages, in the
    /// order the group lists them.
    package struct GroupDigests {
        package var group: Group
        package var files: HashedFiles

        package func archive(_ index: Int) -> HashedFile { files[index] }
        package func sbom(_ index: Int) -> HashedFile { files[group.names.count + index] }
        package func package(named name: String) -> HashedFile {
            files[group.names.count + group.sboms.count + group.packages.firstIndex(of: name)!]
        }
    }

    /// The checksum-list line for a file: a SHA-256 stays inline.
    package static func entry(
        _ name: String, _ digest: HashedFile, _ algorithm: ChecksumAlgorithm
    ) -> ChecksumFile.Entry {
        algorithm == .sha256
            ? ChecksumFile.Entry(name: name, sha256: digest.sha256)
            : ChecksumFile.Entry(name: name, digest: digest.hex(algorithm), algorithm: algorithm)
    }

    /// What will be written to one folder.
    package struct Plan {
        package var group: Group
        package var algorithm: ChecksumAlgorithm
        /// The combined list's lines other than the hashed archives' (packages, SBOMs, and in a
        /// merge the lines kept), sorted bytewise.
        package var others: ChecksumFile
        /// The hashed archives' SHA-512s in `group.names` order; nil for SHA-256, whose lines come
        /// from `manifest` (100,000 archives hold one list of digests, not two; issue 31).
        package var sha512: [String]?
        package var manifest: ReleaseManifest

        /// The list line of `group.names[index]`.
        package func archiveEntry(_ index: Int) -> ChecksumFile.Entry {
            let name = group.names[index]
            if let sha512 { return ChecksumFile.Entry(name: name, digest: sha512[index], algorithm: .sha512) }
            let artifacts = manifest.artifacts
            // In a scan the artifacts are the names, in order; in a merge, a binary search.
            if index < artifacts.count, artifacts[index].name == name { return artifacts[index].sha256Entry }
            var low = 0, high = artifacts.count
            while low < high {
                let middle = (low + high) / 2
                if bytewiseLess(artifacts[middle].name, name) { low = middle + 1 } else { high = middle }
            }
            return artifacts[low].sha256Entry
        }

        /// Every line of the combined list, in order: the archives' and the others', merged.
        package func forEachLine(_ body: (ChecksumFile.Entry) throws -> Void) rethrows {
            var next = 0
            for index in group.names.indices {
                while next < others.entries.count, bytewiseLess(others.entries[next].name, group.names[index]) {
                    try body(others.entries[next])
                    next += 1
                }
                try body(archiveEntry(index))
            }
            for entry in others.entries[next...] { try body(entry) }
        }

        /// The combined list as a value (tests, small folders).
        package var sums: ChecksumFile {
            var entries: [ChecksumFile.Entry] = []
            forEachLine { entries.append($0) }
            return ChecksumFile(entries: entries)
        }
    }

    /// `dist` in the project: as `dist` when that is the working folder (shorter messages), else
    /// the full path.
    public static func defaultFolder(config: RelctlConfig, context: Context) -> String {
        config.root.standardizedFileURL == context.workingDirectory
            ? defaultDirectory : config.root.appendingPathComponent(defaultDirectory).path
    }

    package static func collect(paths: [String], config: RelctlConfig, context: Context) throws -> [Group] {
        var groups: [String: Group] = [:]
        var order: [String] = []
        var problems: [any RelctlError] = []
        let inputs = paths.isEmpty ? [defaultFolder(config: config, context: context)] : paths
        for input in inputs {
            let url = context.resolve(input)
            guard let kind = FileSystem.kind(of: url) else {
                problems.append(ChecksumError.inputNotFound(path: input))
                continue
            }
            let directory = kind == .directory ? url : url.deletingLastPathComponent()
            var shown =
                kind == .directory
                ? input : (input.contains("/") ? String(input[..<input.lastIndex(of: "/")!]) : ".")
            while shown.count > 1, shown.hasSuffix("/") { shown.removeLast() }
            var group = groups[directory.path] ?? Group(directory: directory, shown: shown, names: [], isScan: false)
            if groups[directory.path] == nil { order.append(directory.path) }
            if kind == .directory {
                let names = archives(in: url)
                if names.isEmpty {
                    problems.append(ChecksumError.noArchives(path: input))
                }
                group.names += names
                // .deb/.rpm, then the npm tarballs, MSIs and wheels CI's build jobs hand over.
                group.packages = LinuxPackageFiles.candidates(in: url) + ReleasePackageFiles.candidates(in: url)
                group.isScan = true
            } else if ArtifactName.format(of: url.lastPathComponent) == nil {
                problems.append(ChecksumError.notAnArchive(path: input))
            } else {
                group.names.append(url.lastPathComponent)
            }
            groups[directory.path] = group
        }
        if !problems.isEmpty { throw ProblemList(problems) }
        return order.map { key in
            var group = groups[key]!
            // A scanned folder's names are sorted and distinct already; no set of them all.
            if !zip(group.names, group.names.dropFirst()).allSatisfy({ bytewiseLess($0, $1) }) {
                group.names = Array(Set(group.names)).sorted(by: bytewiseLess)
            }
            // Each SBOM once, even if two archives lead to it (one listed twice is a broken list).
            var seen: Set<String> = []
            group.sboms = group.names.compactMap { sbomName(of: $0, in: group.directory) }
                .filter { seen.insert($0).inserted }
            return group
        }
    }

    /// Regular files directly in `directory` with a recognised archive extension, sorted bytewise.
    package static func archives(in directory: URL) -> [String] {
        FolderScan.regularFiles(in: directory) { ArtifactName.format(of: $0) != nil }
    }

    /// `NAME.cdx.json` for the archive `NAME.<ext>` when that file exists; `NAME.<ext>.cdx.json`
    /// when the target ships several formats (each archive's SBOM of its own).
    package static func sbomName(of archive: String, in directory: URL) -> String? {
        guard let format = ArtifactName.format(of: archive) else { return nil }
        let own = archive + SBOMBuilder.fileExtension
        if FileKind.isRegularFile(directory.appendingPathComponent(own).path) { return own }
        let name = String(archive.dropLast(ArchiveFormats.fileExtension(format).count)) + SBOMBuilder.fileExtension
        return FileKind.isRegularFile(directory.appendingPathComponent(name).path) ? name : nil
    }

    package static var extensionList: String {
        ArchiveFormats.ids.map(ArchiveFormats.fileExtension).joined(separator: " ")
    }

    package static func plan(
        _ group: Group, digests: GroupDigests, algorithm: ChecksumAlgorithm, config: RelctlConfig,
        context: Context
    ) async throws -> Plan {
        // A scan rebuilds the artifacts; of the last manifest it needs only the release fields.
        let existing =
            group.isScan
            ? try ReleaseManifest.readHeader(in: group.directory) : try ReleaseManifest.read(in: group.directory)
        let pinnedProject = config.isFromFile ? config.project.name : existing?.project
        let (artifacts, projects, tags) = describeArchives(
            group, digests: digests, pinnedProject: pinnedProject, config: config, context: context)
        let sha512 = algorithm == .sha512 ? group.names.indices.map { digests.archive($0).hex(.sha512) } : nil
        var entries: [ChecksumFile.Entry] = []
        if tags.count > 1 {
            let listing = tags.keys.sorted(by: bytewiseLess).map { "\($0) (\(tags[$0]!.first!))" }.joined(
                separator: ", ")
            throw ChecksumError.severalReleases(path: group.shown, listing: listing)
        }

        if group.isScan { warnAboutStaleSidecars(in: group, algorithm: algorithm, context: context) }
        // The tag the archives' names (or the folder's manifest.json) spell is read, not handed:
        // a CI merge job has only the archives.
        let reader = TagReader(config.project.tagFormat)
        let releaseTag = tags.keys.first ?? existing?.tag ?? ""
        let releaseVersion = reader.releaseVersion(of: releaseTag)?.description
        for name in LinuxPackageFiles.ofRelease(group.packages, config: config, version: releaseVersion) {
            entries.append(entry(name, digests.package(named: name), algorithm))
        }
        let registryFiles = ReleasePackageFiles.ofRelease(
            group.packages, config: config, tag: releaseTag, version: releaseVersion)
        for file in registryFiles {
            entries.append(entry(file.name, digests.package(named: file.name), algorithm))
        }
        for (index, name) in group.sboms.enumerated() {
            entries.append(entry(name, digests.sbom(index), algorithm))
        }
        if !group.isScan {
            entries += try keptEntries(in: group, algorithm: algorithm)
        }
        let others = ChecksumFile(entries: entries).sorted

        var tag = tags.keys.first ?? existing?.tag ?? ""
        if tag.isEmpty, !group.names.isEmpty, !spellsRelease(config.archive.name) {
            // Version-less names (`{project}_{os}_{arch}`) in a CI merge job, which has only the
            // archives: the release is the tag on the commit being released.
            tag = await releaseTagAtHead(config: config, context: context, shown: group.shown) ?? ""
        }
        if let existing, !existing.tag.isEmpty, existing.tag != tag, !group.isScan {
            throw ChecksumError.manifestForOtherTag(
                path: "\(group.shown)/\(ReleaseManifest.fileName)", manifestTag: existing.tag, tag: tag)
        }
        let version =
            tag.isEmpty
            ? "" : (reader.releaseVersion(of: tag)?.description ?? existing?.version ?? "")
        let project =
            config.isFromFile
            ? config.project.name : (projects.count == 1 ? projects.first! : existing?.project ?? config.project.name)
        let commit =
            await commitHash(of: tag, config: config, context: context)
            ?? (existing?.tag == tag ? existing?.commit : nil)
            ?? ""

        var manifest = ReleaseManifest(project: project, tag: tag, version: version, commit: commit)
        if !group.isScan, let existing {
            manifest.artifacts = existing.artifacts.filter {
                FileSystem.exists(atPath: group.directory.appendingPathComponent($0.name).path)
            }
        }
        if !group.isScan, let kept = existing?.packages {
            let present = kept.filter { FileSystem.exists(atPath: group.directory.appendingPathComponent($0.name).path) }
            if !present.isEmpty { manifest.packages = present }
        }
        manifest.upsert(artifacts)
        // As the release's checksum stage records them: the npm packages and MSIs among the
        // artifacts, the wheels under `packages`.
        let recorded = registryFiles.filter { $0.kind != .sbom }.map { file in
            let digest = digests.package(named: file.name)
            return Artifact(
                name: file.name, kind: file.kind, target: file.target, format: file.format, size: digest.size,
                sha256: digest.sha256
            ).manifestEntry
        }
        manifest.upsert(recorded.filter { $0.format != "whl" })
        let wheels = recorded.filter { $0.format == "whl" }
        if !wheels.isEmpty { manifest.packages = wheels.sorted { bytewiseLess($0.name, $1.name) } }
        return Plan(group: group, algorithm: algorithm, others: others, sha512: sha512, manifest: manifest)
    }

    /// Each archive of the group: its manifest entry, its checksum line, and the project and tag
    /// its name spells (a name that fits no target is listed without one, with a warning).
    private static func describeArchives(
        _ group: Group, digests: GroupDigests, pinnedProject: String?, config: RelctlConfig, context: Context
    ) -> (artifacts: [Artifact], projects: Set<String>, tags: [String: [String]]) {
        let knownTargets = config.targets.map(\.triple)
        let configuredTargets = (try? TargetResolver.resolveAll(config)) ?? []
        var artifacts: [Artifact] = []
        var projects: Set<String> = []
        var tags: [String: [String]] = [:]
        var unfit: [String] = []
        artifacts.reserveCapacity(group.names.count)
        let spellsTarget = !Self.targetPlaceholders.isDisjoint(with: config.archive.name.placeholders)
        for (index, name) in group.names.enumerated() {
            let digest = digests.archive(index)
            // The release-wide SwiftPM bundle belongs to no target and fits no archive name.
            if name.hasSuffix(ArtifactBundle.fileSuffix) {
                artifacts.append(
                    .init(name: name, format: ArtifactBundle.format, size: digest.size, sha256: digest.sha256))
                continue
            }
            var parsed = ArtifactName.parse(
                name, template: config.archive.name, tagFormat: config.project.tagFormat, project: pinnedProject,
                knownTargets: knownTargets)
            // The configured target whose name this is, whatever the template spells (`{os}_{arch}`
            // names no triple); else the triple the name spells (the configured string when it is one,
            // so 100,000 artifacts share a handful of strings).
            var target =
                parsed.flatMap { configuredTarget(of: $0, targets: configuredTargets, config: config) }
                ?? parsed?.target.map { spelled in knownTargets.first { $0 == spelled } ?? spelled }
            // A target with a name of its own (`swiftformat_linux`): its template, its target.
            if target == nil {
                for own in configuredTargets where own.archiveName != nil {
                    guard
                        let fits = ArtifactName.parse(
                            name, template: config.archiveName(for: own), tagFormat: config.project.tagFormat,
                            project: pinnedProject, knownTargets: knownTargets),
                        configuredTarget(of: fits, targets: [own], config: config) != nil
                    else { continue }
                    parsed = fits
                    target = own.triple
                    break
                }
            }
            if parsed == nil || (spellsTarget && target == nil) { unfit.append(name) }
            if let project = parsed?.project, !projects.contains(project) { projects.insert(project) }
            if let tag = parsed?.tag
                ?? (parsed?.version).map({ "\(config.project.tagFormat.prefix)\($0)\(config.project.tagFormat.suffix)" }
                )
            {
                // The first name per tag is all the error needs.
                if tags[tag] == nil { tags[tag] = [name] }
            }
            artifacts.append(
                .init(
                    name: name, target: target ?? "",
                    format: parsed?.format ?? ArtifactName.format(of: name) ?? "", size: digest.size,
                    sha256: digest.sha256))
        }
        warnUnfit(unfit, in: group, config: config, context: context)
        return (artifacts, projects, tags)
    }

    /// Archives shown one by one before the rest are counted: a folder of thousands of names that
    /// fit no target is one mistake (a template, a missing relctl.toml), not thousands.
    package static let unfitShown = 10

    private static func warnUnfit(_ unfit: [String], in group: Group, config: RelctlConfig, context: Context) {
        guard !unfit.isEmpty else { return }
        let why =
            "does not fit the archive name template `\(config.archive.name.text)` for any [[target]] in \(config.path.lastPathComponent); listed in \(ReleaseManifest.fileName) without a target (installers and the notes' Install section leave it out)"
        for name in unfit.prefix(unfitShown) { context.console.warning("\(group.shown)/\(name): \(why)") }
        if unfit.count > unfitShown {
            let more = unfit.count - unfitShown
            context.console.warning(
                "\(group.shown): \(more) more archive\(more == 1 ? "" : "s") like these (\(unfit.count) in all; `-v` lists them) \(more == 1 ? "does" : "do") not fit the template either"
            )
            for name in unfit.dropFirst(unfitShown) { context.console.detail("  \(group.shown)/\(name)") }
        }
    }

    /// The placeholders a target fills in an archive name.
    package static let targetPlaceholders: Set<String> = ["target", "os", "arch", "exe", "goos", "goarch", "goarm"]

    /// The triple of the configured target whose archive `parsed` is: the template rendered for each
    /// target with the release the name parsed to must give the name back (the format breaks a tie).
    package static func configuredTarget(of parsed: ArtifactName, targets: [Target], config: RelctlConfig) -> String? {
        let format = config.project.tagFormat
        // A version-less name renders the same for any release: any version finds its target.
        let anyRelease = targets.allSatisfy { spellsRelease(config.archiveName(for: $0)) } ? nil : "0.0.0"
        let spelled = parsed.version ?? parsed.tag.flatMap { TagReader(format).releaseVersion(of: $0)?.description }
        guard let version = spelled ?? anyRelease else { return nil }
        let tag =
            parsed.tag
            ?? "\(format.prefix)\(format.separator == "." ? version : version.replacingOccurrences(of: ".", with: String(format.separator)))\(format.suffix)"
        let matching = targets.filter { target in
            let names = ReleaseNames(project: parsed.project ?? config.project.name, version: version, tag: tag)
            return config.archiveName(for: target).render(names.placeholders(for: target)) == parsed.stem
        }
        let sameFormat = matching.filter { $0.format == parsed.format }
        if sameFormat.count == 1 { return sameFormat[0].triple }
        return matching.count == 1 ? matching[0].triple : nil
    }

    /// A `NAME.sha256` whose archive is gone would mislead a user checking by hand; relctl
    /// does not delete what it did not write in this run, so it says so instead.
    package static func warnAboutStaleSidecars(in group: Group, algorithm: ChecksumAlgorithm, context: Context) {
        // group.names is sorted bytewise: a binary search, not a set of every name (issue 31).
        func listed(_ archive: String) -> Bool {
            var low = 0, high = group.names.count
            while low < high {
                let middle = (low + high) / 2
                if bytewiseLess(group.names[middle], archive) { low = middle + 1 } else { high = middle }
            }
            return low < group.names.count && group.names[low] == archive
        }
        var stale: [String] = []
        try? FileSystem.forEachName(in: group.directory) { name in
            guard name.hasSuffix(algorithm.fileExtension), !name.hasPrefix(".") else { return }
            let archive = String(name.dropLast(algorithm.fileExtension.count))
            if ArtifactName.format(of: archive) != nil, !listed(archive) { stale.append(name) }
        }
        for name in stale.sorted(by: bytewiseLess) {
            context.console.warning(
                "\(group.shown)/\(name): its archive is gone; delete it so nobody checks against it")
        }
    }

    /// Writes `ARCHIVE.sha256` (or `.sha512`) next to an archive, atomically, in the format
    /// `sha256sum -c` accepts; for `relctl package`, which hashes as it writes.
    package static func writeSidecar(for archive: URL, digest: String, algorithm: ChecksumAlgorithm = .sha256) throws {
        let entry = ChecksumFile.Entry(name: archive.lastPathComponent, digest: digest, algorithm: algorithm)
        let url = archive.deletingLastPathComponent().appendingPathComponent(
            archive.lastPathComponent + algorithm.fileExtension)
        try AtomicFile.write(ChecksumFile(entries: [entry]).render(), to: url)
    }

    /// Lines of the folder's current combined file kept in a merge: same algorithm, file still there.
    package static func keptEntries(in group: Group, algorithm: ChecksumAlgorithm) throws -> [ChecksumFile.Entry] {
        let url = group.directory.appendingPathComponent(algorithm.sumsFileName)
        guard FileSystem.exists(url) else { return [] }
        let current = try ChecksumFile.read(url, displayPath: "\(group.shown)/\(algorithm.sumsFileName)")
        let replaced = Set(group.names).union(group.sboms)
        return current.entries.filter { entry in
            entry.algorithm == algorithm && !replaced.contains(entry.name)
                && FileSystem.exists(atPath: group.directory.appendingPathComponent(entry.name).path)
        }.map { ChecksumFile.Entry(name: $0.name, digest: $0.digest, algorithm: $0.algorithm) }
    }

    /// The tagged commit when this is a git checkout that has the tag; nil otherwise (CI merge
    /// jobs often run on a shallow checkout or none at all).
    /// Whether archive names spell the release (`{version}` or `{tag}`).
    package static func spellsRelease(_ template: Template) -> Bool {
        !Set(template.placeholders).isDisjoint(with: ["version", "tag"])
    }

    /// The one tag in the project's tag format on HEAD; nil (with a warning) when there is none,
    /// or several.
    package static func releaseTagAtHead(config: RelctlConfig, context: Context, shown: String) async -> String? {
        let listed =
            (try? await Git(directory: config.root, context: context).run(["tag", "--points-at", "HEAD"])) ?? ""
        let reader = TagReader(config.project.tagFormat)
        let tags = listed.split(separator: "\n").map(String.init).filter { reader.releaseVersion(of: $0) != nil }
        if tags.count != 1 {
            let found = tags.isEmpty ? "no release tag" : "several release tags (\(tags.joined(separator: ", ")))"
            context.console.warning(
                "\(shown): the archive names spell no release (`[archive] name = \"\(config.archive.name.text)\"`) and HEAD carries \(found), so \(ReleaseManifest.fileName) names no tag, version or commit; run `relctl checksum` on the tagged commit"
            )
        }
        return tags.count == 1 ? tags[0] : nil
    }

    package static func commitHash(of tag: String, config: RelctlConfig, context: Context) async -> String? {
        guard !tag.isEmpty else { return nil }
        return try? await Git(directory: config.root, context: context).commit(of: "refs/tags/\(tag)")
    }

    package static func write(_ plan: Plan, algorithm: ChecksumAlgorithm) throws {
        for index in plan.group.names.indices {
            let entry = plan.archiveEntry(index)
            try writeSidecar(
                for: plan.group.directory.appendingPathComponent(entry.name), digest: entry.digest, algorithm: algorithm
            )
        }
        try AtomicFile.write(to: plan.group.directory.appendingPathComponent(algorithm.sumsFileName)) { piece in
            try plan.forEachLine { entry in try piece(entry.rendered) }
        }
        try plan.manifest.write(in: plan.group.directory)
    }
}

/// What the checksum stage wrote.
package struct ChecksumSet: Sendable {
    package var algorithm: ChecksumAlgorithm
    /// The combined file (`SHA256SUMS`).
    package var sumsFile: URL
    package var manifest: ReleaseManifest
}

/// What `relctl checksum` wrote, per folder (the `--json` document).
public struct ChecksumReport: Codable, Sendable, Equatable {
    public struct Folder: Codable, Sendable, Equatable {
        /// The folder, as shown to the user.
        public var directory: String
        /// The combined file written (`SHA256SUMS`), relative to `directory`.
        public var sums: String
        /// The manifest written (`manifest.json`), relative to `directory`.
        public var manifest: String
        /// The archives hashed in this run, sorted bytewise by name.
        public var hashed: [String]
        /// The manifest as written.
        public var release: ReleaseManifest
    }

    package var algorithm: ChecksumAlgorithm
    public var folders: [Folder]
}
