import Crypto
import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// Pushes a chart package as Helm pushes it to an OCI registry (`helm push`): the chart's metadata
/// as the config blob (`application/vnd.cncf.helm.config.v1+json`), the `.tgz` as the one layer
/// (`application/vnd.cncf.helm.chart.content.v1.tar+gzip`), an OCI image manifest over both, tagged
/// with the chart version (`+` written `_`, which tags cannot hold). Unlike `helm push` nothing in
/// the manifest takes the wall clock (`created` is the release's time), so pushing the same package
/// again keeps the digest. Credentials and the registry client are the images'.
package struct HelmChartPusher: Sendable {
    package static let configMediaType = "application/vnd.cncf.helm.config.v1+json"
    package static let layerMediaType = "application/vnd.cncf.helm.chart.content.v1.tar+gzip"

    package var context: Context

    /// What was pushed (or, on a dry run, would be).
    package struct Pushed: Sendable, Equatable {
        package var reference: String
        package var digest: String
    }

    /// `registry/path/{chart}:{version}` under `repository`.
    package static func reference(repository: ImageReference, chart: String, version: String) -> ImageReference {
        ImageReference(
            registry: repository.registry, repository: repository.repository + "/" + chart,
            tag: version.replacingOccurrences(of: "+", with: "_"))
    }

    /// The manifest and config bytes for a package; the same package and time give the same bytes.
    package static func manifest(
        archive: Data, chart: HelmChartFile, time: Int
    ) throws -> (manifest: Data, config: Data, layer: OCIDescriptor, configDescriptor: OCIDescriptor) {
        let config = try configJSON(chart)
        let configDescriptor = OCIDescriptor(
            mediaType: configMediaType, digest: digest(config), size: Int64(config.count))
        let layer = OCIDescriptor(mediaType: layerMediaType, digest: digest(archive), size: Int64(archive.count))
        var annotations = [
            "org.opencontainers.image.created": Self.timestamp(time),
            "org.opencontainers.image.title": chart["name"]?.text ?? "",
            "org.opencontainers.image.version": chart["version"]?.text ?? "",
        ]
        if let description = chart["description"]?.text {
            annotations["org.opencontainers.image.description"] = description
        }
        if let home = chart["home"]?.text { annotations["org.opencontainers.image.url"] = home }
        let manifest = OCIManifest(config: configDescriptor, layers: [layer], annotations: annotations)
        return (try OCIJSON.encode(manifest), config, layer, configDescriptor)
    }

    /// Helm's config is the chart's metadata as JSON; relctl writes the top-level scalar fields
    /// of Chart.yaml it reads (name, version, apiVersion, appVersion, description, type…).
    package static func configJSON(_ chart: HelmChartFile) throws -> Data {
        var object: [String: String] = [:]
        for key in [
            "name", "home", "version", "description", "icon", "apiVersion", "condition", "tags", "appVersion",
            "kubeVersion", "type",
        ] {
            if let value = chart[key]?.text { object[key] = value }
        }
        return try OCIJSON.encode(object)
    }

    package static func digest(_ data: Data) -> String { "sha256:" + FileHasher.hex(SHA256.hash(data: data)) }

    package static func timestamp(_ time: Int) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(time)))
    }

    /// Pushes the package at `file`. A dry run logs in and checks the registry answers, pushing nothing.
    package func push(
        file: URL, chart: HelmChartFile, repository: ImageReference, time: Int, dryRun: Bool
    ) async throws -> Pushed {
        guard let archive = FileSystem.contents(of: file) else {
            throw ChannelError.publishFailed(channel: HelmChannel.id, reason: "\(file.path) cannot be read")
        }
        let name = chart["name"]?.text ?? "", version = chart["version"]?.text ?? ""
        let reference = Self.reference(repository: repository, chart: name, version: version)
        let parts = try Self.manifest(archive: archive, chart: chart, time: time)
        let digest = Self.digest(parts.manifest)
        let shown = "\(reference.registry)/\(reference.repository):\(reference.tag ?? version)"
        let pusher = ImagePusher(context: context)
        let client = try await pusher.connect(to: reference, base: nil).opened.value.client
        if dryRun {
            _ = try await pusher.blobExists(client, parts.layer.digest)
            context.console.info("chart \(name): \(reference.registry) answers; would push \(shown)@\(digest)")
            return Pushed(reference: shown, digest: digest)
        }
        if try await !pusher.blobExists(client, parts.configDescriptor.digest) {
            try await pusher.upload(client, parts.configDescriptor, body: .data(parts.config))
        }
        if try await !pusher.blobExists(client, parts.layer.digest) {
            try await pusher.upload(client, parts.layer, body: .file(file, size: parts.layer.size))
        }
        try await pusher.putManifest(
            client, reference: reference.tag ?? version, body: parts.manifest, mediaType: OCIMediaType.manifest)
        context.console.info("pushed chart \(shown)@\(digest)")
        return Pushed(reference: shown, digest: digest)
    }
}
