import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// A chart folder read the way Helm's directory loader reads it (`pkg/chart/loader`): every
/// regular file not left out by `.helmignore`, walked in lexical order (links followed, as long as
/// they stay inside the chart), a UTF-8 byte-order mark dropped; then laid out as `chartutil.Save`
/// writes a package: `Chart.yaml`, `Chart.lock` (apiVersion v2), `values.yaml`,
/// `values.schema.json`, the templates, then every other file, all under a folder named after the chart.
package struct HelmChartPackage: Sendable {
    package var name: String
    package var version: String
    /// The chart's own files (relative to its folder) in the order `chartutil.Save` writes them;
    /// its subcharts are not among them.
    package var files: [ArchiveContents.File]
    /// The charts under `charts/` (folders and `.tgz` archives, taken as they are) and, once
    /// `HelmDependencyFetcher` has run, the dependencies it fetched; in name order.
    package var subcharts: [HelmChartPackage]
    /// What Chart.yaml declares and Chart.lock locks (empty for a chart without dependencies).
    package var dependencies: HelmDependencies
    /// Where each subchart came from, for messages (`charts/redis-ha-4.17.1.tgz`).
    package var origin: String = ""

    /// `{name}-{version}.tgz`, as `helm package` names it.
    package var fileName: String { "\(name)-\(version).tgz" }

    /// Every entry of the package: the chart's files under `{name}/`, then each subchart laid out
    /// the same way under `{name}/charts/` (Helm writes subcharts unpacked, whatever their source).
    package var entries: [ChannelTarball.Entry] { entries(prefix: "") }

    private func entries(prefix: String) -> [ChannelTarball.Entry] {
        let base = prefix + name + "/"
        return files.map { ChannelTarball.Entry(name: base + $0.path, data: $0.data) }
            + subcharts.flatMap { $0.entries(prefix: base + "charts/") }
    }

    /// Reads the chart at `path` (`[[chart]] path`, as `shown` in messages) inside the project
    /// `root`. The folder is found by the one path rule: a chart folder that is a link out of the
    /// project (to `/etc`) is refused, never packaged.
    package static func load(path: String, root: URL) throws -> HelmChartPackage {
        let folder = try ConfinedPath.resolveInside(path, root: root, what: "[[chart]] path")
        return try load(folder: folder, shown: path, topLevel: true)
    }

    /// Reads the chart at `folder` (already resolved); `shown` is how messages name it.
    /// Only the `[[chart]]` itself (`topLevel`) has its dependencies read: a subchart is packaged
    /// as it is, with what its own charts/ holds.
    package static func load(folder: URL, shown: String, topLevel: Bool) throws -> HelmChartPackage {
        let chartURL = folder.appendingPathComponent(HelmChartFile.name)
        let chartShown = HelmChartFile.fileName(in: shown)
        guard FileKind.isRegularFile(chartURL.path) else { throw ChannelError.chartMissing(path: chartShown) }
        var ignore = try HelmIgnore(text: "", displayPath: "")
        let ignoreURL = folder.appendingPathComponent(HelmIgnore.fileName)
        if FileKind.isRegularFile(ignoreURL.path) {
            let text = try ManifestText.read(ignoreURL, displayPath: shown + "/" + HelmIgnore.fileName)
            ignore = try HelmIgnore(text: text, displayPath: shown + "/" + HelmIgnore.fileName)
        }
        var files: [(String, [UInt8])] = []
        try walk(folder, relative: "", root: folder, ignore: ignore, shown: shown, into: &files)
        return try assemble(
            files.map { ArchiveContents.File(path: $0.0, data: $0.1) }, shown: shown, topLevel: topLevel)
    }

    /// The chart in a `.tgz` (a vendored or fetched dependency): its files under one top folder,
    /// read as Helm's `LoadArchive` reads them (no `.helmignore`, a byte-order mark dropped).
    package static func load(archive: Data, shown: String) throws -> HelmChartPackage {
        let read: [ArchiveContents.File]
        do {
            read = try ArchiveContents.files(
                of: archive, fileLimit: maximumFileSize, totalLimit: maximumChartSize)
        } catch {
            let reason: String
            switch error {
            case .unreadable(let why): reason = "is not a readable chart archive: \(why)"
            case .unsafePath(let path): reason = "holds `\(path)`, a path outside its folder; Helm refuses such a chart"
            case .special(let path):
                reason = "holds `\(path)`, a link or special file; a chart archive holds files only"
            case .tooLarge(let why): reason = "is larger than Helm loads: \(why)"
            }
            throw ChannelError.chartInvalid(path: shown, line: nil, reason: reason)
        }
        var files: [ArchiveContents.File] = []
        for var file in read {
            // Every member sits under the chart's top folder, which is dropped.
            guard let slash = file.path.firstIndex(of: "/") else { continue }
            file.path = String(file.path[file.path.index(after: slash)...])
            if file.data.starts(with: [0xEF, 0xBB, 0xBF]) { file.data.removeFirst(3) }
            files.append(file)
        }
        return try assemble(files, shown: shown, topLevel: false)
    }

    /// Helm's loader limits (`MaxDecompressedChartSize`, `MaxDecompressedFileSize`).
    package static let maximumChartSize = 100 << 20
    package static let maximumFileSize = 5 << 20

    /// The chart from its files in load order: Chart.yaml checked, the files ordered as
    /// `chartutil.Save` writes them, `charts/` read into subcharts, the dependencies and lock read.
    private static func assemble(
        _ files: [ArchiveContents.File], shown: String, topLevel: Bool
    ) throws
        -> HelmChartPackage
    {
        let chartShown = HelmChartFile.fileName(in: shown)
        var data: [String: [UInt8]] = [:]
        for file in files { data[file.path] = file.data }
        guard let chartBytes = data[HelmChartFile.name] else { throw ChannelError.chartMissing(path: chartShown) }
        let chartText = String(decoding: chartBytes, as: UTF8.self)
        let chart = HelmChartFile(text: chartText)
        guard let name = chart["name"]?.text else {
            throw ChannelError.chartInvalid(
                path: chartShown, line: nil, reason: "Chart.yaml has no `name`; Helm requires one")
        }
        guard !name.contains("/"), !name.contains("\\"), name != ".", name != ".." else {
            throw ChannelError.chartInvalid(
                path: chartShown, line: chart["name"]?.line,
                reason: "chart name `\(name)` must be a plain name (it becomes the package's top folder)")
        }
        guard let version = chart["version"]?.text else {
            throw ChannelError.chartInvalid(
                path: chartShown, line: nil, reason: "Chart.yaml has no `version`; Helm requires one")
        }
        let isV2 = chart["apiVersion"]?.text == "v2"

        var ordered: [String] = [HelmChartFile.name]
        if isV2, data["Chart.lock"] != nil { ordered.append("Chart.lock") }
        for special in ["values.yaml", "values.schema.json"] where data[special] != nil { ordered.append(special) }
        ordered += files.map(\.path).filter { $0.hasPrefix("templates/") }
        var subchartFiles: [String: [ArchiveContents.File]] = [:]
        for file in files {
            let path = file.path
            if path.hasPrefix("charts/") {
                let rest = path.dropFirst("charts/".count)
                if path.hasSuffix(".prov") {
                    ordered.append(path)
                    continue
                }
                // Helm skips entries of charts/ whose name starts with `_` or `.`.
                if rest.hasPrefix("_") || rest.hasPrefix(".") { continue }
                let folder = rest.prefix { $0 != "/" }
                subchartFiles[String(folder), default: []].append(
                    ArchiveContents.File(path: String(rest.dropFirst(folder.count)), data: file.data))
                continue
            }
            let special = ["Chart.yaml", "Chart.lock", "values.yaml", "values.schema.json"]
            if special.contains(path) || path.hasPrefix("templates/") { continue }
            // requirements.* belong to apiVersion v1 charts; a v2 chart's loader drops them.
            if path == "requirements.yaml" || path == "requirements.lock" {
                if isV2 { continue }
            }
            ordered.append(path)
        }
        if let schema = data["values.schema.json"], (try? JSONSerialization.jsonObject(with: Data(schema))) == nil {
            throw ChannelError.chartInvalid(
                path: shown + "/values.schema.json", line: nil, reason: "is not valid JSON; Helm refuses to package it")
        }
        var subcharts: [HelmChartPackage] = []
        for folder in subchartFiles.keys.sorted(by: bytewiseLess) {
            let entries = subchartFiles[folder] ?? []
            let subShown = shown + "/charts/" + folder
            var subchart: HelmChartPackage
            if folder.hasSuffix(".tgz"), entries.count == 1, entries[0].path.isEmpty {
                subchart = try load(archive: Data(entries[0].data), shown: subShown)
            } else {
                let inside = entries.filter { $0.path.hasPrefix("/") }.map {
                    ArchiveContents.File(path: String($0.path.dropFirst()), data: $0.data)
                }
                guard !inside.isEmpty else {
                    throw ChannelError.chartInvalid(
                        path: subShown, line: nil,
                        reason:
                            "is neither a chart folder nor a chart archive (.tgz); Helm refuses a chart with it in charts/ (move it out, or name it with a leading `_` or `.`)"
                    )
                }
                subchart = try assemble(inside, shown: subShown, topLevel: false)
            }
            subchart.origin = "charts/" + folder
            subcharts.append(subchart)
        }
        // Chart.yaml is read as YAML only when it declares dependencies (a top-level `dependencies:`).
        let declares = chartText.split(separator: "\n").contains { $0.hasPrefix("dependencies:") }
        let dependencies =
            topLevel && isV2 && (declares || data["Chart.lock"] != nil)
            ? try HelmDependencies.read(
                chartText: declares ? chartText : "",
                lockText: data["Chart.lock"].map { String(decoding: $0, as: UTF8.self) }, shown: shown)
            : HelmDependencies(declared: [], lock: nil)
        return HelmChartPackage(
            name: name, version: version,
            files: ordered.map { ArchiveContents.File(path: $0, data: data[$0] ?? []) }, subcharts: subcharts,
            dependencies: dependencies)
    }

    private static func walk(
        _ folder: URL, relative: String, root: URL, ignore: HelmIgnore, shown: String,
        into files: inout [(String, [UInt8])]
    ) throws {
        for entry in try FileSystem.names(in: folder).sorted(by: bytewiseLess) {
            let url = folder.appendingPathComponent(entry)
            let path = relative.isEmpty ? entry : relative + "/" + entry
            guard let info = FileSystem.statusIfPresent(atPath: url.path) else {
                // A broken link that .helmignore leaves out is not an error (Helm checks the rules first).
                if ignore.ignores(path, isFolder: false) { continue }
                throw ChannelError.chartInvalid(
                    path: shown + "/" + path, line: nil, reason: "cannot be read (a broken link?)")
            }
            // Links are followed as Helm follows them, but only while they stay inside the chart.
            let resolved: ProjectFile
            do { resolved = try ProjectFile.open(path, in: root, what: "chart \(shown)") } catch let error
                as ConfinedPathError
            {
                throw ChannelError.chartInvalid(
                    path: shown + "/" + path, line: nil,
                    reason:
                        "passes through \(error.step), outside the chart; nothing outside the chart folder goes into its package"
                )
            }
            let isFolder = info.isDirectory
            if ignore.ignores(path, isFolder: isFolder) { continue }
            if isFolder {
                try walk(url, relative: path, root: root, ignore: ignore, shown: shown, into: &files)
                continue
            }
            guard info.isRegularFile else {
                throw ChannelError.chartInvalid(
                    path: shown + "/" + path, line: nil, reason: "is not a regular file; Helm cannot package it")
            }
            guard let data = resolved.data() else {
                throw ChannelError.chartInvalid(path: shown + "/" + path, line: nil, reason: "cannot be read")
            }
            var bytes = [UInt8](data)
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
            files.append((path, bytes))
        }
    }
}
