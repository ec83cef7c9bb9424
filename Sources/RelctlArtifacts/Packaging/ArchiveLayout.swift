import Foundation
import RelctlBasics
import RelctlModel

/// Everything an archive will hold, computed and checked before a byte is written.
package struct ArchiveLayout: Sendable {
    /// The file stem and the single top-level folder (`velostream-v1.0.0-x86_64-unknown-linux-musl`).
    package var name: String
    package var format: String
    package var links: LinksPolicy
    /// Entries in bytewise path order, directories explicit, paths relative to the top folder.
    package var entries: [ArchiveEntry]
    /// false for a flat archive (`[archive] top-folder = false`): entries at the archive's root.
    package var hasTopFolder: Bool = true

    /// The folder every entry is written under: the name, or empty for a flat archive.
    package var top: String { hasTopFolder ? name : "" }
    /// true when the target ships this name in several formats (`format = ["tar.gz", "zip"]`).
    package var sharesName = false

    /// The stem of the archive's SBOM (`STEM.cdx.json`): its name, or its file name when the
    /// target ships several formats, so each archive has an SBOM of its own.
    package var sbomStem: String { sharesName ? fileName : name }

    /// The archive's file name (`NAME.tar.gz`).
    package var fileName: String { name + ArchiveFormats.fileExtension(format) }

    /// Builds the layout for one target from the config: `bin/`, `files`, `trees`,
    /// `[[archive.symlink]]` per binary and the setup-env scripts, refusing anything unsafe.
    /// - Parameters:
    ///   - placeholders: `project`, `version`, `tag` (the target adds its own).
    ///   - binaryRoot: where prebuilt binaries are read from instead of the project root:
    ///     `ROOT/<binary-dir>/NAME` when that exists, else `ROOT/NAME`.
    ///   - outputDirectory: left out of every tree, so archives never contain earlier archives.
    ///   - ignored: what git ignores in the project; left out of trees (a file named in `files` is kept).
    ///   - probe: for `relctl check`, before anything is built: a missing binary stands in as an
    ///     empty file, so every other conflict `package` would hit is found now.
    ///   - staged: the folder `[archive] stage` filled for this archive; its files go to the root.
    ///   - walks: the trees already walked for another target of the same run, shared.
    package static func compute(
        config: RelctlConfig, target: Target, placeholders: [String: String], binaryRoot: URL? = nil,
        outputDirectory: URL? = nil, ignored: IgnoredPaths? = nil, probe: Bool = false, staged: URL? = nil,
        walks: TreeWalks? = nil, prepared: URL? = nil
    ) throws -> ArchiveLayout {
        var values = placeholders
        for (key, value) in target.placeholders { values[key] = value }
        let name = config.archiveName(for: target).render(values)
        if name.isEmpty || name.contains("/") || name == "." || name == ".." {
            throw PackagingError.unsafePath(
                path: name,
                reason:
                    "is not a usable archive name; fix \(target.archiveName == nil ? "[archive] name" : "`name` of [[target]] \(target.triple)") in relctl.toml"
            )
        }
        try ArchivePath.checkName(name)
        try ArchivePath.checkArchiveFileName(name + ArchiveFormats.fileExtension(target.format))
        var builder = LayoutBuilder()
        let containment = Containment(root: config.root, binaryRoot: binaryRoot)

        // Each part's problems are collected, so one missing file hides no bad link (and so on).
        var problems: [PackagingError] = []
        func collect<T>(_ fallback: T, _ body: () throws -> T) throws -> T {
            do {
                return try body()
            } catch let error as PackagingError {
                problems.append(error)
            } catch let error as LayoutProblems {
                problems += error.errors
            }
            return fallback
        }
        let packagedBinaries = try collect([]) {
            try addBinaries(
                config: config, target: target, values: values, binaryRoot: binaryRoot, probe: probe,
                prepared: prepared, containment: containment, into: &builder)
        }
        try collect(()) { try addFiles(config: config, values: values, containment: containment, into: &builder) }

        let walker = TreeWalker(
            exclude: config.archive.exclude, skipping: outputDirectory.flatMap { FileIdentity(path: $0.path) },
            ignored: ignored.map { ($0, config.root.standardizedFileURL.path) })
        for mapping in config.archive.trees {
            let source = config.root.appendingPathComponent(mapping.from.render(values)).standardizedFileURL
            let destination = try ArchivePath.normalize(mapping.to.render(values), what: "[archive] trees")
            if FileSystem.exists(source) {
                try containment.check(source, key: "[archive] trees")
            }
            if let walks {
                try walks.add(source, into: destination, walker: walker, builder: &builder)
            } else {
                try walker.walk(source, into: destination, builder: &builder)
            }
        }

        try addSymlinks(config: config, target: target, values: values, binaries: packagedBinaries, into: &builder)

        if let staged {
            try walker.walk(staged, into: "", builder: &builder)
        }

        if config.archive.setupEnv { try addSetupScripts(name: name, into: &builder) }

        let finished = try builder.finish()
        let entries = try collect(finished) { try LinkResolver(entries: finished).apply(target.links) }
        try LayoutProblems.raise(problems)
        try refuseUnextractable(entries, target: target)
        return ArchiveLayout(
            name: name, format: target.format, links: target.links, entries: entries,
            hasTopFolder: config.archive.topFolder)
    }

    /// `bin/NAME` for each `[build]` binary; the binaries actually packaged, in order (an optional
    /// one the build did not make is left out; under `probe` a missing one stands in empty).
    private static func addBinaries(
        config: RelctlConfig, target: Target, values: [String: String], binaryRoot: URL?, probe: Bool,
        prepared: URL?, containment: Containment, into builder: inout LayoutBuilder
    ) throws -> [String] {
        let settings = config.targets.first { $0.triple == target.triple }
        let binaryDirectory = (settings?.binaryDirectory ?? config.build.binaryDirectory).render(values)
        var packagedBinaries: [String] = []
        var missing: [PackagingError] = []
        for binary in config.build.binaries {
            let fileName = target.executableName(binary)
            // A universal binary relctl joined: its own file (the slices were checked already).
            if let prepared {
                let joined = prepared.appendingPathComponent(fileName)
                if FileKind.isRegularFile(joined.path) {
                    try builder.add(
                        ArchiveEntry(path: "bin/" + fileName, content: .file(joined), mode: 0o755, origin: joined.path))
                    packagedBinaries.append(binary)
                }
                continue
            }
            let source = locateBinary(
                fileName, directory: binaryDirectory, root: config.root, override: binaryRoot, triple: target.triple)
            guard FileKind.isRegularFile(source.path) else {
                // An optional binary the build did not make is simply not shipped.
                if config.build.optionalBinaries.contains(binary), !probe { continue }
                if probe {
                    try builder.add(
                        ArchiveEntry(
                            path: "bin/" + fileName, content: .generated(Data()), mode: 0o755, origin: source.path))
                    packagedBinaries.append(binary)
                    continue
                }
                missing.append(.missingBinary(binary: fileName, path: source.path, target: target.triple))
                continue
            }
            try containment.check(source, key: "binaries")
            try builder.add(
                ArchiveEntry(path: "bin/" + fileName, content: .file(source), mode: 0o755, origin: source.path))
            packagedBinaries.append(binary)
        }
        try LayoutProblems.raise(missing)
        return packagedBinaries
    }

    /// `[archive] files`: regular files only, each inside the project.
    private static func addFiles(
        config: RelctlConfig, values: [String: String], containment: Containment, into builder: inout LayoutBuilder
    ) throws {
        var missing: [PackagingError] = []
        for mapping in config.archive.files {
            let source = config.root.appendingPathComponent(mapping.from.render(values))
            let destination = try ArchivePath.normalize(mapping.to.render(values), what: "[archive] files")
            guard let info = FileSystem.statusIfPresent(atPath: source.path) else {
                missing.append(.missingSource(path: source.path, key: "files"))
                continue
            }
            if info.isDirectory {
                throw PackagingError.unsafePath(
                    path: destination,
                    reason:
                        "comes from the folder \(source.path), listed in [archive] files; list folders in [archive] trees"
                )
            }
            guard info.isRegularFile else {
                throw PackagingError.specialFile(path: source.path, kind: FileKind.describe(info.mode))
            }
            try containment.check(source, key: "[archive] files")
            try builder.add(
                ArchiveEntry(
                    path: destination, content: .file(source), mode: FileKind.normalizedMode(info.mode),
                    origin: source.path))
        }
        try LayoutProblems.raise(missing)
    }

    /// `[[archive.symlink]]` rules.
    private static func addSymlinks(
        config: RelctlConfig, target: Target, values: [String: String], binaries packagedBinaries: [String],
        into builder: inout LayoutBuilder
    ) throws {
        // A rule naming `{binary}` is made once per binary; a literal rule once.
        for (index, binary) in packagedBinaries.enumerated() {
            var perBinary = values
            perBinary["binary"] = target.executableName(binary)
            for rule in config.archive.symlinks where index == 0 || rule.mentionsBinary {
                let path = try ArchivePath.normalize(rule.path.render(perBinary), what: "[[archive.symlink]] path")
                let destination = rule.to.render(perBinary)
                try ArchivePath.checkName("\(path) -> \(destination)")
                try builder.add(
                    ArchiveEntry(
                        path: path, content: .symlink(destination), mode: 0o777, origin: symlinkRuleOrigin + config.path
                    ))
            }
        }

    }

    /// `setup-env.sh` and `setup-env.bat` (`[archive] setup-env`).
    private static func addSetupScripts(name: String, into builder: inout LayoutBuilder) throws {
        let origin = "generated by relctl"
        try builder.add(
            ArchiveEntry(
                path: "setup-env.sh", content: .generated(Data(SetupEnvScripts.posix(name: name).utf8)),
                mode: 0o755, origin: origin))
        try builder.add(
            ArchiveEntry(
                path: "setup-env.bat", content: .generated(Data(SetupEnvScripts.windows(name: name).utf8)),
                mode: 0o644, origin: origin))
    }

    /// What the target's users could not extract: names that collide on a case-insensitive file
    /// system (Windows, macOS) and names Windows refuses.
    private static func refuseUnextractable(_ entries: [ArchiveEntry], target: Target) throws {
        if target.os == "windows" || target.os == "macos" { try refuseCaseCollisions(entries, target: target.triple) }
        if target.os == "windows" {
            for entry in entries {
                if let why = ArchivePath.windowsProblem(entry.path) {
                    throw PackagingError.unsafePath(
                        path: entry.path,
                        reason: "cannot be extracted on Windows (\(target.triple)): \(why); rename it or exclude it")
                }
            }
        }
    }

    /// Case-insensitive file systems (Windows, and macOS by default) merge `README` and `readme`
    /// on extraction, so an archive for them must not hold both.
    package static func refuseCaseCollisions(_ entries: [ArchiveEntry], target: String) throws {
        var seen: [String: String] = [:]
        for entry in entries {
            let folded = entry.path.lowercased()
            if let other = seen[folded], other != entry.path {
                throw PackagingError.caseCollision(first: other, second: entry.path, target: target)
            }
            seen[folded] = entry.path
        }
    }

    /// How a link made by `[[archive.symlink]]` names its origin; followed by the config's path.
    package static let symlinkRuleOrigin = "[[archive.symlink]] in "

    /// With prebuilt binaries (`--artifacts`), the binary files that two of `targets` would both
    /// read, each named once with the first two targets reading it.
    package static func sharedArtifacts(
        config: RelctlConfig, targets: [Target], placeholders: [String: String], binaryRoot: URL
    ) -> [PackagingError] {
        var readers: [String: String] = [:]
        var shared: [PackagingError] = []
        var reported: Set<String> = []
        for target in targets {
            var values = placeholders
            for (key, value) in target.placeholders { values[key] = value }
            let settings = config.targets.first { $0.triple == target.triple }
            let directory = (settings?.binaryDirectory ?? config.build.binaryDirectory).render(values)
            for binary in config.build.binaries {
                let source = locateBinary(
                    target.executableName(binary), directory: directory, root: config.root, override: binaryRoot,
                    triple: target.triple)
                guard FileKind.isRegularFile(source.path) else { continue }
                if let first = readers[source.path] {
                    if first != target.triple, reported.insert(source.path).inserted {
                        shared.append(.sharedArtifact(path: source.path, first: first, second: target.triple))
                    }
                } else {
                    readers[source.path] = target.triple
                }
            }
        }
        return shared
    }

    /// A configured binary of `target` where the build left it: its file name (`hello.exe` on
    /// Windows), where it was looked for, and whether it may be missing (`optional-binaries`).
    package struct BuiltBinary: Sendable {
        package var fileName: String
        package var source: URL
        package var optional: Bool
        package var exists: Bool { FileKind.isRegularFile(source.path) }
    }

    /// Each configured binary of `target`, located as `relctl package` locates it (the target's
    /// `binary-dir`, or the prebuilt binaries in `override`), in configuration order; the
    /// packagers other than the archive (deb/rpm, MSI) read their files from here.
    package static func builtBinaries(config: RelctlConfig, target: Target, override: URL?) -> (
        folder: String, binaries: [BuiltBinary]
    ) {
        var values = target.placeholders
        values["project"] = config.project.name  // as `relctl check` renders binary-dir: no version yet
        let settings = config.targets.first { $0.triple == target.triple }
        let folder = (settings?.binaryDirectory ?? config.build.binaryDirectory).render(values)
        let binaries = config.build.binaries.map { binary in
            let fileName = target.executableName(binary)
            return BuiltBinary(
                fileName: fileName,
                source: locateBinary(
                    fileName, directory: folder, root: config.root, override: override, triple: target.triple),
                optional: config.build.optionalBinaries.contains(binary))
        }
        return (folder, binaries)
    }

    /// Where a binary is read from: `ROOT/<binary-dir>/NAME`; with prebuilt binaries in `override`,
    /// `override/<binary-dir>/NAME`, else `override/<triple>/NAME` (the per-target folders CI jobs
    /// hand over), else `override/NAME`.
    package static func locateBinary(
        _ fileName: String, directory: String, root: URL, override: URL?, triple: String? = nil
    ) -> URL {
        guard let override else { return root.appendingPathComponent(directory).appendingPathComponent(fileName) }
        let nested = override.appendingPathComponent(directory).appendingPathComponent(fileName)
        if FileKind.isRegularFile(nested.path) { return nested }
        if let triple {
            let perTarget = override.appendingPathComponent(triple).appendingPathComponent(fileName)
            if FileKind.isRegularFile(perTarget.path) { return perTarget }
        }
        return override.appendingPathComponent(fileName)
    }
}
