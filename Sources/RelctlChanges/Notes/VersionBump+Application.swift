import Foundation
import RelctlBasics
import RelctlModel

extension VersionBump {
    /// The application release a chart's `appVersion` trails. The chart is the project's own
    /// `Chart.yaml` `version` (a `[[version]]` of kind `helm`); its application is the
    /// repository's bare tag series when it spells the `appVersion` (`v0.36.1` beside the chart's
    /// `helm-v2.18.4`) and holds at least three releases; the answer is that series' highest final release merged into
    /// `target`, when it is above the `appVersion`. Nil otherwise, or when git cannot say.
    static func applicationAhead(
        config: RelctlConfig, own: TagFormat, target: String, git: Git
    ) async -> (file: String, appVersion: String, tag: String)? {
        guard let source = config.versions.first(where: { $0.kind == HelmManifestReader.versionKind }),
            let url = try? ManifestReaders.location(of: source.path, root: config.root, within: config.repositoryRoot),
            let text = (try? HelmChartFile.read(url, displayPath: source.path))?["appVersion"]?.text
        else { return nil }
        let appText = HelmManifestReader.withoutLeadingV(text)
        guard let appVersion = try? SemanticVersion(parsing: appText), !appVersion.isPrerelease,
            let tags = try? await git.tagList()
        else { return nil }
        // The repository's bare series (`v0.36.1`, `0.36.1`), when it names the appVersion and is
        // not the chart's own. A named one is left alone: in a repository of charts, another
        // chart's `name-1.2.3` may spell this one's appVersion by chance.
        var prefixes: Set<String> = []
        for tag in tags where tag.name.hasSuffix(appText) {
            let prefix = String(tag.name.dropLast(appText.count))
            guard prefix.isEmpty || prefix == "v" || prefix == "V", !(prefix == own.prefix && own.suffix.isEmpty)
            else { continue }
            prefixes.insert(prefix)
        }
        guard prefixes.count == 1, let prefix = prefixes.first else { return nil }
        let releases = tags.compactMap { tag -> (name: String, version: SemanticVersion, commit: String?)? in
            guard tag.name.hasPrefix(prefix),
                let version = try? SemanticVersion(parsing: String(tag.name.dropFirst(prefix.count)))
            else { return nil }
            return (tag.name, version, tag.commit)
        }
        guard releases.count >= 3, let unmerged = try? await git.tagNames(notMergedInto: target) else { return nil }
        if let newest = releases.filter({ !$0.version.isPrerelease && !unmerged.contains($0.name) })
            .max(by: { $0.version < $1.version }), appVersion < newest.version
        {
            return (source.path, text, newest.name)
        }
        // The application's release tagged on top of the target and not merged back (Reloader
        // tags `v1.4.15` on its "Bump version" commits past the chart's, then releases the chart
        // from main): ahead all the same. The newest three above the appVersion are asked about.
        let above = releases.filter { !$0.version.isPrerelease && unmerged.contains($0.name) && appVersion < $0.version }
            .sorted { $0.version > $1.version }
        for candidate in above.prefix(3) {
            guard let commit = candidate.commit else { continue }
            if await git.isAncestor(target, of: commit) == true { return (source.path, text, candidate.name) }
        }
        return nil
    }
}
