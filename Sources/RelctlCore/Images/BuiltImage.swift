import Foundation

/// What `relctl image` built (and pushed): the JSON shape of the contract's `images` list.
public struct BuiltImage: Sendable, Encodable, Equatable {
    public var name: String
    /// `host/path` the image is pushed to.
    var repository: String
    /// The OCI index's digest, `sha256:…`: the multi-platform image's identity.
    var digest: String
    var tags: [String]
    /// `linux/amd64`, `linux/arm64/v8`, … in target order.
    var platforms: [String]
    /// The OCI image layout folder.
    var layout: String
    /// True once every blob, manifest and tag is in the registry.
    public var pushed: Bool = false

    /// Where a base image came from, so its layers can be mounted instead of uploaded.
    var base: ImageReference?
    var reference: ImageReference

    enum CodingKeys: String, CodingKey { case name, repository, digest, tags, platforms, layout, pushed }
}

/// The facts of the release every image records: version, commit, source, time.
public struct ImageRelease: Sendable {
    var tag: String
    var version: String
    var commit: String
    /// Unix time of the commit (or `SOURCE_DATE_EPOCH`): every file time and `created`.
    var time: Int
    /// The repository's web address, when the remote is a known forge.
    var source: String?

    init(tag: String, version: String, commit: String, time: Int, source: String?) {
        self.tag = tag
        self.version = version
        self.commit = commit
        self.time = time
        self.source = source
    }

    /// RFC 3339 in UTC (`2024-05-01T12:00:00Z`).
    var created: String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(time)))
    }

    /// The standard OCI annotations, plus the image's own labels (which win).
    func annotations(labels: [String: String]) -> [String: String] {
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
    func tags(_ templates: [Template], project: String, image: String) throws -> [String] {
        let semver = try? SemanticVersion(parsing: version)
        let isPrerelease = !(semver?.prerelease.isEmpty ?? true)
        var values = ["project": project, "version": version, "tag": tag]
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
