import Foundation

/// A CycloneDX 1.6 JSON document, reduced to the fields relctl writes. Encoded with sorted keys
/// (`JSONOutput`), so the same release gives the same bytes.
struct SBOMDocument: Codable, Sendable, Equatable {
    struct Hash: Codable, Sendable, Equatable {
        /// CycloneDX algorithm name: `SHA-256`, `SHA-512`, `SHA-1`.
        var alg: String
        var content: String
    }

    struct ExternalReference: Codable, Sendable, Equatable {
        /// `distribution` (a download with its hash) or `vcs`.
        var type: String
        var url: String
        var hashes: [Hash]?
    }

    struct Component: Codable, Sendable, Equatable {
        /// `file` for the archive and its files, `library` for lockfile packages, `application` for tools.
        var type: String
        var bomRef: String?
        var name: String
        var version: String?
        var purl: String?
        var hashes: [Hash]?
        var externalReferences: [ExternalReference]?

        enum CodingKeys: String, CodingKey {
            case type, name, version, purl, hashes, externalReferences
            case bomRef = "bom-ref"
        }

        init(
            type: String, bomRef: String? = nil, name: String, version: String? = nil, purl: String? = nil,
            hashes: [Hash]? = nil, externalReferences: [ExternalReference]? = nil
        ) {
            self.type = type
            self.bomRef = bomRef
            self.name = name
            self.version = version
            self.purl = purl
            self.hashes = hashes
            self.externalReferences = externalReferences
        }
    }

    struct Tools: Codable, Sendable, Equatable {
        var components: [Component]
    }

    struct Metadata: Codable, Sendable, Equatable {
        var timestamp: String
        var tools: Tools
        var component: Component
    }

    struct Dependency: Codable, Sendable, Equatable {
        var ref: String
        var dependsOn: [String]
    }

    var schema = "http://cyclonedx.org/schema/bom-1.6.schema.json"
    var bomFormat = "CycloneDX"
    var specVersion = "1.6"
    var serialNumber: String
    var version = 1
    var metadata: Metadata
    var components: [Component]
    var dependencies: [Dependency]

    enum CodingKeys: String, CodingKey {
        case schema = "$schema"
        case bomFormat, specVersion, serialNumber, version, metadata, components, dependencies
    }
}
