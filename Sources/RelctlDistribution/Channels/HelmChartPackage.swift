import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// A chart folder read the way Helm's directory loader reads it (`pkg/chart/loader`): every
/// regular file not left out by `.helmignore`, walked in lexical order (links followed, as long as
/// they stay inside the chart), a UTF-8 byte-order mark dropped; then laid out as `chartutil.Save`
/// writes a package: `Chart.yaml`, `Chart.lock` (apiVersion v2), `values.yaml`,
/// `values.schema.json`, the templates, then every other file, all under a folder named after the chart.
package struct HelmChartPackage {
    package var name: String
    package var version: String
    package var entries: [ChannelTarball.Entry]

    /// `{name}-{version}.tgz`, as `helm package` names it.
    package var fileName: String { "\(name)-\(version).tgz" }

    /// Reads the chart at `path` (`[[chart]] path`, as `shown` in messages) inside the project
    /// `root`. The folder is found by the one path rule: a chart folder that is a link out of the
    /// project (to `/etc`) is refused, never packaged.
    package static func load(path: String, root: URL) throws -> HelmChartPackage {
        let folder = try ConfinedPath.resolveInside(path, root: root, what: "[[chart]] path")
        return try load(folder: folder, shown: path)
    }

    /// Reads the chart at `folder` (already resolved); `shown` is how messages name it.
    private static func load(folder: URL, shown: String) throws -> HelmChartPackage {
        let chartURL = folder.appendingPathComponent(HelmChartFile.name)
        let chartShown = HelmChartFile.fileName(in: shown)
        guard FileKind.isRegularFile(chartURL.path) else { throw ChannelError.chartMissing(path: chartShown) }
        let chart = try HelmChartFile.read(chartURL, displayPath: chartShown)
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

        var ignore = try HelmIgnore(text: "", displayPath: "")
        let ignoreURL = folder.appendingPathComponent(HelmIgnore.fileName)
        if FileKind.isRegularFile(ignoreURL.path) {
            let text = try ManifestText.read(ignoreURL, displayPath: shown + "/" + HelmIgnore.fileName)
            ignore = try HelmIgnore(text: text, displayPath: shown + "/" + HelmIgnore.fileName)
        }
        var files: [(String, [UInt8])] = []
        try walk(folder, relative: "", root: folder, ignore: ignore, shown: shown, into: &files)

        var data: [String: [UInt8]] = [:]
        for (path, bytes) in files { data[path] = bytes }
        var ordered: [String] = [HelmChartFile.name]
        if isV2, data["Chart.lock"] != nil { ordered.append("Chart.lock") }
        for special in ["values.yaml", "values.schema.json"] where data[special] != nil { ordered.append(special) }
        ordered += files.map(\.0).filter { $0.hasPrefix("templates/") }
        for (path, _) in files {
            if path.hasPrefix("charts/") {
                let rest = path.dropFirst("charts/".count)
                if path.hasSuffix(".prov") { ordered.append(path); continue }
                // Helm skips entries of charts/ whose name starts with `_` or `.`.
                if rest.hasPrefix("_") || rest.hasPrefix(".") { continue }
                throw ChannelError.chartInvalid(
                    path: shown + "/" + path, line: nil,
                    reason:
                        "relctl does not package chart dependencies (charts/) yet; vendor the subchart's templates or publish it as a chart of its own"
                )
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
        return HelmChartPackage(
            name: name, version: version,
            entries: ordered.map { ChannelTarball.Entry(name: "\(name)/\($0)", data: data[$0] ?? []) })
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
