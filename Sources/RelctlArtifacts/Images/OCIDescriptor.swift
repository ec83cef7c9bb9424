import Foundation
import RelctlBasics

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
