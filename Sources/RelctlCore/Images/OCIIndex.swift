import Foundation

/// An OCI image index: the multi-platform entry point (and the shape of a layout's `index.json`).
struct OCIIndex: Sendable, Codable, Equatable {
    var schemaVersion = 2
    var mediaType: String? = OCIMediaType.index
    var manifests: [OCIDescriptor]
    var annotations: [String: String]?

    init(manifests: [OCIDescriptor], annotations: [String: String]?) {
        self.manifests = manifests
        self.annotations = annotations
    }
}
