import Foundation
import RelctlBasics

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
