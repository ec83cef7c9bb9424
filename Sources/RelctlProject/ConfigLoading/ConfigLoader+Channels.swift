import Foundation
import RelctlBasics
import RelctlDistribution
import RelctlModel

/// `[[chart]]`, `[nix]`, `[homebrew]`, `[scoop]` and `[[channel]]`. A chart's `Chart.yaml` joins
/// the version locations (its `version` and `appVersion`), unless `[[version]]` lists it already.
extension ConfigLoader {
    package static func readChannels(_ top: TableReader, into config: inout RelctlConfig) {
        var channels = ChannelSettings()
        var chartPaths: Set<String> = []
        for table in top.tables("chart") {
            defer { table.finish() }
            guard let path = table.string("path") else {
                if table.values["path"] == nil {
                    table.report(
                        nil,
                        "every [[chart]] needs `path`, the folder holding Chart.yaml (e.g. \"charts/\(config.project.name)\")"
                    )
                }
                continue
            }
            guard !path.hasPrefix("/"), !path.split(separator: "/").contains("..") else {
                table.report(
                    "path", "[[chart]] `path` `\(path)` must be a folder inside the project, relative to its root")
                continue
            }
            guard chartPaths.insert(path).inserted else {
                table.report("path", "two [[chart]] tables name `\(path)`; list each chart once")
                continue
            }
            var chart = ChannelSettings.Chart(path: path, repository: nil, line: table.line)
            if let text = table.string("repository") {
                chart.repository = chartRepository(text, table: table)
            }
            channels.charts.append(chart)
            let chartFile = HelmChartFile.fileName(in: path)
            func plain(_ path: String) -> Substring {
                var path = Substring(path)
                while path.hasPrefix("./") { path = path.dropFirst(2) }
                return path
            }
            if !config.versions.contains(where: { plain($0.path) == plain(chartFile) }) {
                config.versions.append(
                    VersionSource(path: chartFile, kind: HelmManifestReader.versionKind, line: table.line))
                config.versions.append(
                    VersionSource(path: chartFile, kind: HelmManifestReader.appVersionKind, line: table.line))
            }
        }
        if let nix = top.table("nix") {
            channels.nix = nix.bool("enabled") ?? true
            nix.finish()
        }
        if let homebrew = top.table("homebrew") {
            channels.homebrew = repository(homebrew, key: "tap", project: config.project.name)
        }
        if let scoop = top.table("scoop") {
            channels.scoop = repository(scoop, key: "bucket", project: config.project.name)
        }
        if let aur = top.table("aur") {
            channels.aur = repository(aur, key: "repository", project: config.project.name)
            // The AUR stage's rule (`AurChannel.isWord`), said by `check` rather than after the build.
            if let settings = channels.aur, let license = settings.license ?? config.project.metadata.license,
                !AurChannel.isWord(license)
            {
                aur.report(
                    settings.license == nil ? nil : "license",
                    "the PKGBUILD licence \(QuotedString.basic(license))\(settings.license == nil ? " (from [project] `license`)" : "") cannot hold blanks or `/`: it is one word of the PKGBUILD's `license` array; write one SPDX identifier (e.g. \"MIT\") in [aur] `license`"
                )
            }
        }
        if let winget = top.table("winget") {
            let identifier = winget.string("identifier")
            if identifier == nil, winget.values["identifier"] == nil {
                winget.report(
                    nil, "[winget] needs `identifier`, the package's winget id (e.g. \"Acme.\(config.project.name)\")")
            }
            if let settings = repository(winget, key: "repository", project: config.project.name), let identifier {
                channels.winget = ChannelSettings.Winget(identifier: identifier, repository: settings)
            }
        }
        var names: Set<String> = []
        for table in top.tables("channel") {
            defer { table.finish() }
            guard let name = table.string("name") else {
                if table.values["name"] == nil {
                    table.report(
                        nil, "every [[channel]] needs `name` (it runs `relctl-channel-NAME` unless `command` is given)")
                }
                continue
            }
            guard ChannelRegistry.isValidName(name) else {
                table.report(
                    "name",
                    "channel name `\(name)` must be lower-case letters, digits and `-` (it names `relctl-channel-\(name)`)"
                )
                continue
            }
            guard names.insert(name).inserted else {
                table.report("name", "two [[channel]] tables are named `\(name)`; list each channel once")
                continue
            }
            if ChannelRegistry.addedIDs.contains(name) {
                // A channel compiled into this relctl: its other keys are its settings, as text.
                var settings: [String: String] = [:]
                for key in table.values.keys.sorted() where key != "name" {
                    if let value = table.string(key) { settings[key] = value }
                }
                channels.plugins.append(
                    ChannelSettings.Plugin(name: name, command: nil, line: table.line, settings: settings))
                continue
            }
            var command = table.strings("command")
            if let given = command, given.isEmpty || given[0].isEmpty {
                table.report("command", "`command` must name a program, e.g. [\"python3\", \"channels/announce.py\"]")
                command = nil
            }
            channels.plugins.append(ChannelSettings.Plugin(name: name, command: command, line: table.line))
        }
        config.channels = channels
    }

    private static func chartRepository(_ text: String, table: TableReader) -> ImageReference? {
        guard text.hasPrefix("oci://") else {
            table.report(
                "repository",
                "[[chart]] `repository` `\(text)` must be an OCI registry path like `oci://ghcr.io/acme/charts`")
            return nil
        }
        do {
            let reference = try ImageReference(parsing: String(text.dropFirst("oci://".count)))
            guard reference.tag == nil, reference.digest == nil else {
                table.report(
                    "repository",
                    "[[chart]] `repository` `\(text)` must not carry a tag or digest: the chart version is the tag")
                return nil
            }
            return reference
        } catch let error as RelctlError {
            table.report("repository", "chart repository \(error.message)")
        } catch {}
        return nil
    }

    private static func repository(_ table: TableReader, key: String, project: String) -> ChannelSettings.Repository? {
        defer { table.finish() }
        let description = table.string("description")
        let homepage = table.string("homepage")
        let license = table.string("license")
        let name = table.string("name")
        if let name, !TapChannelName.isValid(name) {
            table.report("name", "[\(table.path)] `name` \(QuotedString.basic(name)) \(TapChannelName.rule)")
        } else if name == nil, !TapChannelName.isValid(project) {
            // Said by `check`, not first at release time: the file and (for Homebrew) the Ruby
            // class are named after it.
            table.report(
                nil,
                "the project name \(QuotedString.basic(project)) is the [\(table.path)] name by default and \(TapChannelName.rule); set `name` in [\(table.path)]"
            )
        }
        guard let location = table.string(key), !location.isEmpty else {
            table.report(
                key,
                "[\(table.path)] needs `\(key)`, the git repository it is published to (`OWNER/NAME` on GitHub or a git URL)"
            )
            return nil
        }
        return ChannelSettings.Repository(
            location: location, description: description, homepage: homepage, license: license, name: name)
    }
}
