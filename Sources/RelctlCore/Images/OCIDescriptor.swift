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
