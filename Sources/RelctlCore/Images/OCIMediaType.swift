import Foundation

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
