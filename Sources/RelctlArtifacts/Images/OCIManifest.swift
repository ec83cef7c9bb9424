import Foundation
import RelctlBasics

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
