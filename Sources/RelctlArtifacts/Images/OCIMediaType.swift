import Foundation
import RelctlBasics

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
