import Foundation
import RelctlBasics

/// The canonical bytes relctl writes for every JSON blob: sorted keys, no whitespace, slashes
/// unescaped. The digest is taken over exactly these bytes, so they must never vary.
package enum OCIJSON {
    package static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    package static func decode<T: Decodable>(_ type: T.Type, from data: Data, what: String) throws -> T {
        do { return try JSONDecoder().decode(type, from: data) } catch {
            throw ImageError.badContent(what: what, reason: "\(error)")
        }
    }
}

/// The media types relctl writes and the Docker ones it accepts from base images.
package enum OCIMediaType {
    package static let index = "application/vnd.oci.image.index.v1+json"
    package static let manifest = "application/vnd.oci.image.manifest.v1+json"
    package static let config = "application/vnd.oci.image.config.v1+json"
    package static let layerGzip = "application/vnd.oci.image.layer.v1.tar+gzip"
    package static let dockerList = "application/vnd.docker.distribution.manifest.list.v2+json"
    package static let dockerManifest = "application/vnd.docker.distribution.manifest.v2+json"
    package static let dockerConfig = "application/vnd.docker.container.image.v1+json"
    package static let dockerLayerGzip = "application/vnd.docker.image.rootfs.diff.tar.gzip"

    /// A base image's layer type restated in OCI terms (the bytes, hence the digest, are the same).
    package static func ociLayer(_ type: String) -> String {
        type == dockerLayerGzip ? layerGzip : type
    }

    package static let isIndex: Set<String> = [index, dockerList]
}

/// An OCI content descriptor: what a manifest or index says about a blob it points to.
package struct OCIDescriptor: Sendable, Codable, Equatable {
    package var mediaType: String
    package var digest: String
    package var size: Int64
    package var platform: ImagePlatform?
    package var annotations: [String: String]?

    package init(
        mediaType: String, digest: String, size: Int64, platform: ImagePlatform? = nil,
        annotations: [String: String]? = nil
    ) {
        self.mediaType = mediaType
        self.digest = digest
        self.size = size
        self.platform = platform
        self.annotations = annotations
    }
}

/// An OCI image index: the multi-platform entry point (and the shape of a layout's `index.json`).
package struct OCIIndex: Sendable, Codable, Equatable {
    package var schemaVersion = 2
    package var mediaType: String? = OCIMediaType.index
    package var manifests: [OCIDescriptor]
    package var annotations: [String: String]?

    package init(manifests: [OCIDescriptor], annotations: [String: String]?) {
        self.manifests = manifests
        self.annotations = annotations
    }
}

/// An OCI image manifest: one platform's config and layers.
package struct OCIManifest: Sendable, Codable, Equatable {
    package var schemaVersion = 2
    package var mediaType: String? = OCIMediaType.manifest
    package var config: OCIDescriptor
    package var layers: [OCIDescriptor]
    package var annotations: [String: String]?

    package init(config: OCIDescriptor, layers: [OCIDescriptor], annotations: [String: String]?) {
        self.config = config
        self.layers = layers
        self.annotations = annotations
    }
}

/// The image configuration blob (`application/vnd.oci.image.config.v1+json`). Fields relctl does
/// not set are kept from a base image when they are listed here; others are dropped.
package struct OCIImageConfig: Sendable, Codable, Equatable {
    package struct Execution: Sendable, Codable, Equatable {
        package var User: String?
        package var Env: [String]?
        package var Entrypoint: [String]?
        package var Cmd: [String]?
        package var WorkingDir: String?
        package var Labels: [String: String]?
        package var StopSignal: String?
        package var ExposedPorts: [String: Empty]?
        package var Volumes: [String: Empty]?
    }

    /// `{}`, the value of `ExposedPorts` and `Volumes` entries.
    package struct Empty: Sendable, Codable, Equatable {}

    package struct RootFS: Sendable, Codable, Equatable {
        package var type = "layers"
        package var diff_ids: [String]
    }

    package struct History: Sendable, Codable, Equatable {
        package var created: String?
        package var created_by: String?
        package var comment: String?
        package var empty_layer: Bool?
    }

    package var created: String?
    package var architecture: String
    package var os: String
    package var variant: String?
    package var config: Execution?
    package var rootfs: RootFS
    package var history: [History]?

    /// An empty image for a platform (what `scratch` means).
    package static func scratch(_ platform: ImagePlatform) -> OCIImageConfig {
        OCIImageConfig(
            created: nil, architecture: platform.architecture, os: platform.os, variant: platform.variant,
            config: Execution(), rootfs: RootFS(diff_ids: []), history: nil)
    }
}
