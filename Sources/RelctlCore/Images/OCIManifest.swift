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

/// The canonical bytes relctl writes for every JSON blob: sorted keys, no whitespace, slashes
/// unescaped. The digest is taken over exactly these bytes, so they must never vary.
enum OCIJSON {
    static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    static func decode<T: Decodable>(_ type: T.Type, from data: Data, what: String) throws -> T {
        do { return try JSONDecoder().decode(type, from: data) } catch {
            throw ImageError.badContent(what: what, reason: "\(error)")
        }
    }
}
