import Foundation
import RelctlBasics

/// A CycloneDX 1.6 JSON document, reduced to the fields relctl writes. Encoded with sorted keys
/// (`JSONOutput`), so the same release gives the same bytes.
package struct SBOMDocument: Codable, Sendable, Equatable {
    package struct Hash: Codable, Sendable, Equatable {
        /// CycloneDX algorithm name: `SHA-256`, `SHA-512`, `SHA-1`.
        package var alg: String
        package var content: String
    }

    package struct ExternalReference: Codable, Sendable, Equatable {
        /// `distribution` (a download with its hash) or `vcs`.
        package var type: String
        package var url: String
        package var hashes: [Hash]?
    }

    package struct Component: Codable, Sendable, Equatable {
        /// `file` for the archive and its files, `library` for lockfile packages, `application` for tools.
        package var type: String
        package var bomRef: String?
        package var name: String
        package var version: String?
        package var purl: String?
        package var hashes: [Hash]?
        package var externalReferences: [ExternalReference]?

        package enum CodingKeys: String, CodingKey {
            case type, name, version, purl, hashes, externalReferences
            case bomRef = "bom-ref"
        }

        package init(
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

    package struct Tools: Codable, Sendable, Equatable {
        package var components: [Component]
    }

    package struct Metadata: Codable, Sendable, Equatable {
        package var timestamp: String
        package var tools: Tools
        package var component: Component
    }

    package struct Dependency: Codable, Sendable, Equatable {
        package var ref: String
        package var dependsOn: [String]
    }

    package var schema = "http://cyclonedx.org/schema/bom-1.6.schema.json"
    package var bomFormat = "CycloneDX"
    package var specVersion = "1.6"
    package var serialNumber: String
    package var version = 1
    package var metadata: Metadata
    package var components: [Component]
    package var dependencies: [Dependency]

    package enum CodingKeys: String, CodingKey {
        case schema = "$schema"
        case bomFormat, specVersion, serialNumber, version, metadata, components, dependencies
    }
}
