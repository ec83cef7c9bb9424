import Foundation

/// A CycloneDX 1.6 JSON document, reduced to the fields relctl writes. Encoded with sorted keys
/// (`JSONOutput`), so the same release gives the same bytes.
public struct SBOMDocument: Codable, Sendable, Equatable {
    public struct Hash: Codable, Sendable, Equatable {
        /// CycloneDX algorithm name: `SHA-256`, `SHA-512`, `SHA-1`.
        public var alg: String
        public var content: String
    }

    public struct ExternalReference: Codable, Sendable, Equatable {
        /// `distribution` (a download with its hash) or `vcs`.
        public var type: String
        public var url: String
        public var hashes: [Hash]?
    }

    public struct Component: Codable, Sendable, Equatable {
        /// `file` for the archive and its files, `library` for lockfile packages, `application` for tools.
        public var type: String
        public var bomRef: String?
        public var name: String
        public var version: String?
        public var purl: String?
        public var hashes: [Hash]?
        public var externalReferences: [ExternalReference]?

        enum CodingKeys: String, CodingKey {
            case type, name, version, purl, hashes, externalReferences
            case bomRef = "bom-ref"
        }

        public init(
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

    public struct Tools: Codable, Sendable, Equatable {
        public var components: [Component]
    }

    public struct Metadata: Codable, Sendable, Equatable {
        public var timestamp: String
        public var tools: Tools
        public var component: Component
    }

    public struct Dependency: Codable, Sendable, Equatable {
        public var ref: String
        public var dependsOn: [String]
    }

    public var schema = "http://cyclonedx.org/schema/bom-1.6.schema.json"
    public var bomFormat = "CycloneDX"
    public var specVersion = "1.6"
    public var serialNumber: String
    public var version = 1
    public var metadata: Metadata
    public var components: [Component]
    public var dependencies: [Dependency]

    enum CodingKeys: String, CodingKey {
        case schema = "$schema"
        case bomFormat, specVersion, serialNumber, version, metadata, components, dependencies
    }
}
