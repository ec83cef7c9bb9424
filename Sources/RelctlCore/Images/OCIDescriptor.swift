import Foundation

/// An OCI content descriptor: what a manifest or index says about a blob it points to.
struct OCIDescriptor: Sendable, Codable, Equatable {
    var mediaType: String
    var digest: String
    var size: Int64
    var platform: ImagePlatform?
    var annotations: [String: String]?

    init(
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

/// The media types relctl writes and the Docker ones it accepts from base images.
enum OCIMediaType {
    static let index = "application/vnd.oci.image.index.v1+json"
    static let manifest = "application/vnd.oci.image.manifest.v1+json"
    static let config = "application/vnd.oci.image.config.v1+json"
    static let layerGzip = "application/vnd.oci.image.layer.v1.tar+gzip"
    static let dockerList = "application/vnd.docker.distribution.manifest.list.v2+json"
    static let dockerManifest = "application/vnd.docker.distribution.manifest.v2+json"
    static let dockerConfig = "application/vnd.docker.container.image.v1+json"
    static let dockerLayerGzip = "application/vnd.docker.image.rootfs.diff.tar.gzip"

    /// A base image's layer type restated in OCI terms (the bytes, hence the digest, are the same).
    static func ociLayer(_ type: String) -> String {
        type == dockerLayerGzip ? layerGzip : type
    }

    static let isIndex: Set<String> = [index, dockerList]
}
