import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// `[project]`'s package metadata and the `[[package]]` tables. Read after `[[target]]`, so each
/// table's targets are checked against the Linux targets, and every missing metadata key is
/// named (exit 2) before anything is built.
extension ConfigLoader {
    package static func readMetadata(_ table: TableReader) -> ProjectMetadata {
        var metadata = ProjectMetadata()
        metadata.description = table.string("description")
        metadata.license = table.string("license")
        metadata.homepage = table.string("homepage")
        metadata.maintainer = table.string("maintainer")
        if let maintainer = metadata.maintainer, let problem = PackageMetadata.problem(maintainer: maintainer) {
            table.report("maintainer", problem)
        }
        // Each reaches the deb control file, the copyright file and the rpm header's text.
        let values: [(String, String?, Bool)] = [
            ("description", metadata.description, true), ("license", metadata.license, false),
            ("homepage", metadata.homepage, false),
        ]
        for case let (key, value?, lineBreaks) in values {
            if let problem = PackageMetadata.problem(key: key, value: value, lineBreaks: lineBreaks) {
                table.report(key, problem)
            }
        }
        return metadata
    }

    package static func readLinuxPackages(_ tables: [TableReader], config: RelctlConfig) -> [LinuxPackageSettings] {
        var packages: [LinuxPackageSettings] = []
        var formats: Set<String> = []
        for table in tables {
            guard let package = readLinuxPackage(table, config: config) else { continue }
            if !formats.insert(package.format).inserted {
                table.report(
                    "format",
                    "two [[package]] tables have format `\(package.format)`; both would write the same files, so keep one (list several targets in its `targets`)"
                )
                continue
            }
            packages.append(package)
        }
        return packages
    }

    private static func readLinuxPackage(_ table: TableReader, config: RelctlConfig) -> LinuxPackageSettings? {
        defer { table.finish() }
        guard let format = table.string("format") else {
            if table.values["format"] == nil {
                table.report(
                    nil,
                    "every [[package]] needs `format`: \(LinuxPackageFormats.ids.map { "\"\($0)\"" }.joined(separator: " or "))"
                )
            }
            return nil
        }
        guard LinuxPackageFormats.all[format] != nil else {
            table.report(
                "format",
                "unknown package format `\(format)`\(Suggestion.hint(for: format, in: LinuxPackageFormats.ids)); known formats: \(LinuxPackageFormats.ids.joined(separator: ", "))"
            )
            return nil
        }
        var package = LinuxPackageSettings(format: format)
        package.line = table.line
        package.metadata = readMetadata(table)
        package.name = readPackageName(table, config: config)
        if let section = table.string("section") {
            if let problem = PackageMetadata.problem(key: "section", value: section) {
                table.report("section", problem)
            }
            package.section = section
        }
        if let group = table.string("group") {
            if let problem = PackageMetadata.problem(key: "group", value: group) { table.report("group", problem) }
            package.group = group
        }
        if let depends = table.strings("depends") {
            for value in depends {
                if let problem = PackageMetadata.problem(key: "depends", value: value) {
                    table.report("depends", problem)
                }
            }
            package.depends = depends
        }
        if let release = table.string("release") {
            if let problem = PackageMetadata.problem(key: "release", value: release) {
                table.report("release", problem)
            } else if release.isEmpty || release.contains("-") || release.contains(where: \.isWhitespace) {
                table.report("release", "rpm `release` `\(release)` must be non-empty, without `-` or spaces")
            } else {
                package.release = release
            }
        }
        package.licenseFile = table.string("license-file")
        if let key = table.string("signing-key") {
            if format == "rpm" {
                package.signingKey = key
            } else {
                table.report(
                    "signing-key",
                    "only rpm packages carry a signature of their own; a \(format) is trusted through a signed repository (or the signed SHA256SUMS), remove `signing-key` here"
                )
            }
        }
        package.files = readPackageFiles(table)
        package.targets = readPackageTargets(table, format: format, config: config)
        let merged = config.project.metadata.overridden(by: package.metadata)
        let missing = PackageMetadata.missingKeys(merged)
        if !missing.isEmpty {
            table.report(
                nil,
                "[[package]] format = \"\(format)\" needs \(missing.map { "`\($0)`" }.joined(separator: ", ")) in [project] (or in this table): \(missing.map(Self.example).joined(separator: "; "))"
            )
        }
        return package
    }

    /// `name`, or the project's name, as a valid Debian/RPM package name.
    private static func readPackageName(_ table: TableReader, config: RelctlConfig) -> String? {
        let name = table.string("name")
        if let name = name, name.wholeMatch(of: /[a-z0-9][a-z0-9+.\-]+/) == nil {
            table.report(
                "name",
                "package name `\(name)` must be lowercase letters, digits, `+`, `-` and `.`, at least two long, starting with a letter or digit (Debian Policy 5.6.1)"
            )
        }
        if name == nil, config.project.name.lowercased().wholeMatch(of: /[a-z0-9][a-z0-9+.\-]+/) == nil {
            table.report(
                nil,
                "the project name `\(config.project.name)` is not a valid package name (lowercase letters, digits, `+`, `-`, `.`); set `name` in this [[package]]"
            )
        }
        return name
    }

    /// `files`: extra `{ from, to }` files installed at absolute paths.
    private static func readPackageFiles(_ table: TableReader) -> [(String, String)] {
        var files: [(String, String)] = []
        for item in table.items("files") {
            guard case .right(let file) = item, let from = file.string("from"), let to = file.string("to") else {
                table.report(
                    "files",
                    "each entry of `files` is a table `{ from = \"docs/NAME.1\", to = \"/usr/share/man/man1/NAME.1\" }`"
                )
                continue
            }
            file.finish()
            // The path is a line of the deb's md5sums and a string of the rpm header.
            if let problem = PackageMetadata.problem(key: "files", value: to) {
                table.report("files", problem)
                continue
            }
            if let problem = LinuxPackageSettings.problem(installPath: to) {
                table.report("files", "`files` target `\(to)` \(problem)")
                continue
            }
            files.append((from, to))
        }
        return files
    }

    /// `targets`: Linux targets with a Debian/RPM architecture, at most one per architecture.
    private static func readPackageTargets(_ table: TableReader, format: String, config: RelctlConfig) -> [String]? {
        var selected: [String]?
        let linux = config.targets.map(\.triple).filter { LinuxArchitecture(triple: $0) != nil }
        if let targets = table.strings("targets") {
            for triple in targets where !linux.contains(triple) {
                table.report(
                    "targets",
                    "`\(triple)` is not a Linux target of this project with a Debian/RPM architecture; Linux targets: \(linux.isEmpty ? "none" : linux.joined(separator: ", "))"
                )
            }
            selected = targets
        } else if linux.isEmpty {
            table.report(
                nil,
                "[[package]] format = \"\(format)\" packages Linux targets, and no [[target]] is Linux (x86_64, aarch64, armv7, i686…)"
            )
        }
        // Two targets of one architecture (gnu and musl builds) would write the same file.
        var byArchitecture: [String: String] = [:]
        for triple in selected ?? linux {
            guard let architecture = LinuxArchitecture(triple: triple)?.debian else { continue }
            if let other = byArchitecture[architecture] {
                table.report(
                    selected == nil ? nil : "targets",
                    "targets `\(other)` and `\(triple)` are both \(architecture) and would write the same \(format) file; list the one to package in this table's `targets`"
                )
            }
            byArchitecture[architecture] = triple
        }
        return selected
    }

    private static func example(_ key: String) -> String {
        switch key {
        case "description": return "description = \"One line summary\\nLonger text\""
        case "license": return "license = \"MIT\" (SPDX)"
        default: return "maintainer = \"Name <email>\""
        }
    }
}
