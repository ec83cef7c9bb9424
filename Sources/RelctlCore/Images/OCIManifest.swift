import Foundation

/// An OCI image manifest: one platform's config and layers.
struct OCIManifest: Sendable, Codable, Equatable {
    var schemaVersion = 2
    var mediaType: String? = OCIMediaType.manifest
    var config: OCIDescriptor
    var layers: [OCIDescriptor]
    var annotations: [String: String]?

    init(config: OCIDescriptor, layers: [OCIDescriptor], annotations: [String: String]?) {
        self.config = config
        self.layers = layers
        self.annotations = annotations
    }
}
