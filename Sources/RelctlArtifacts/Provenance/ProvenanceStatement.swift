import Foundation
import RelctlBasics

/// An in-toto Statement v1 (github.com/in-toto/attestation, spec/v1/statement.md) whose
/// predicate is SLSA Provenance v1 (slsa.dev/spec/v1.0/provenance): which files a release
/// produced (subjects, with their digests) and how (the build definition and the run).
package struct ProvenanceStatement: Codable, Sendable, Equatable {
    package static let statementType = "https://in-toto.io/Statement/v1"
    package static let slsaPredicateType = "https://slsa.dev/provenance/v1"

    /// A file and its digests (`{"sha256": "…"}`).
    package struct Subject: Codable, Sendable, Equatable {
        package var name: String
        package var digest: [String: String]
    }

    package var type: String = statementType
    package var subject: [Subject]
    package var predicateType: String = slsaPredicateType
    package var predicate: SLSAProvenance

    package enum CodingKeys: String, CodingKey {
        case type = "_type"
        case subject, predicateType, predicate
    }

    package init(subject: [Subject], predicate: SLSAProvenance) {
        self.subject = subject
        self.predicate = predicate
    }
}

/// SLSA Provenance v1's predicate, with relctl's build type: the parameters a rebuilder needs
/// (tag, targets, the config's digest) and the exact source (the commit).
package struct SLSAProvenance: Codable, Sendable, Equatable {
    /// An artifact named by URI and/or digest (in-toto ResourceDescriptor).
    package struct ResourceDescriptor: Codable, Sendable, Equatable {
        package var uri: String?
        package var name: String?
        package var digest: [String: String]
    }

    package struct ExternalParameters: Codable, Sendable, Equatable {
        package var project: String
        package var tag: String
        package var version: String
        /// Target triples of the archives, sorted.
        package var targets: [String]
        /// `relctl.toml` (path relative to the project root) and its SHA-256.
        package var config: ResourceDescriptor
    }

    package struct InternalParameters: Codable, Sendable, Equatable {
        /// The clock written into archives and handed to builds (SOURCE_DATE_EPOCH or the commit time).
        package var sourceDateEpoch: Int
    }

    package struct BuildDefinition: Codable, Sendable, Equatable {
        package var buildType: String
        package var externalParameters: ExternalParameters
        package var internalParameters: InternalParameters
        package var resolvedDependencies: [ResourceDescriptor]
    }

    package struct Builder: Codable, Sendable, Equatable {
        package var id: String
        package var version: [String: String]?
    }

    package struct Metadata: Codable, Sendable, Equatable {
        package var invocationId: String?
        package var startedOn: String
        package var finishedOn: String
    }

    package struct RunDetails: Codable, Sendable, Equatable {
        package var builder: Builder
        package var metadata: Metadata
    }

    package var buildDefinition: BuildDefinition
    package var runDetails: RunDetails

    /// The build type: relctl's release (build, package, checksum), documented where it points.
    package static let buildType =
        "\(RelctlVersion.repository)/blob/main/docs/proving-a-release.md#build-type-release-v1"

    /// The git commit among the resolved dependencies (`digest.gitCommit`).
    package var sourceCommit: String? {
        buildDefinition.resolvedDependencies.lazy.compactMap { $0.digest["gitCommit"] }.first
    }
}
