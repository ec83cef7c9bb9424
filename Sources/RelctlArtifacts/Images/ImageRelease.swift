import Foundation
import RelctlBasics
import RelctlModel

/// The facts of the release every image records: version, commit, source, time.
public struct ImageRelease: Sendable {
    package var tag: String
    package var version: String
    package var commit: String
    /// Unix time of the commit (or `SOURCE_DATE_EPOCH`): every file time and `created`.
    package var time: Int
    /// The repository's web address, when the remote is a known forge.
    package var source: String?

    package init(tag: String, version: String, commit: String, time: Int, source: String?) {
        self.tag = tag
        self.version = version
        self.commit = commit
        self.time = time
        self.source = source
    }

    /// RFC 3339 in UTC (`2024-05-01T12:00:00Z`).
    package var created: String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(time)))
    }

    /// The standard OCI annotations, plus the image's own labels (which win).
    package func annotations(labels: [String: String]) -> [String: String] {
        var values = [
            "org.opencontainers.image.version": version,
            "org.opencontainers.image.created": created,
        ]
        if !commit.isEmpty { values["org.opencontainers.image.revision"] = commit }
        if let source { values["org.opencontainers.image.source"] = source }
        return values.merging(labels) { _, label in label }
    }

    /// The tags for this release: each template rendered; a prerelease keeps only the templates
    /// naming its exact version, so `latest` and `1.2` never move to a release candidate.
    /// `+` (SemVer build metadata) cannot appear in a tag and becomes `_`, as Helm does.
    package func tags(_ templates: [Template], project: String, image: String) throws -> [String] {
        let semver = try? SemanticVersion(parsing: version)
        let isPrerelease = !(semver?.prerelease.isEmpty ?? true)
        var values = ReleaseNames(project: project, version: version, tag: tag).placeholders()
        if let semver {
            values["major"] = semver.major
            values["minor"] = semver.minor
            values["patch"] = semver.patch
            values["prerelease"] = semver.prerelease.map(\.description).joined(separator: ".")
        }
        var tags: [String] = []
        for template in templates {
            if isPrerelease, !template.placeholders.contains("version"), !template.placeholders.contains("tag") {
                continue
            }
            let tag = template.render(values).replacingOccurrences(of: "+", with: "_")
            guard ImageReference.isTag(tag) else { throw ImageError.badTag(tag: tag, image: image) }
            if !tags.contains(tag) { tags.append(tag) }
        }
        return tags
    }
}
