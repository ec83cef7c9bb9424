import Foundation

/// An in-toto Statement v1 (github.com/in-toto/attestation, spec/v1/statement.md) whose
/// predicate is SLSA Provenance v1 (slsa.dev/spec/v1.0/provenance): which files a release
/// produced (subjects, with their digests) and how (the build definition and the run).
struct ProvenanceStatement: Codable, Sendable, Equatable {
    static let statementType = "https://in-toto.io/Statement/v1"
    static let slsaPredicateType = "https://slsa.dev/provenance/v1"

    /// A file and its digests (`{"sha256": "…"}`).
    struct Subject: Codable, Sendable, Equatable {
        var name: String
        var digest: [String: String]
    }

    var type: String = statementType
    var subject: [Subject]
    var predicateType: String = slsaPredicateType
    var predicate: SLSAProvenance

    enum CodingKeys: String, CodingKey {
        case type = "_type"
        case subject, predicateType, predicate
    }

    init(subject: [Subject], predicate: SLSAProvenance) {
        self.subject = subject
        self.predicate = predicate
    }
}

/// SLSA Provenance v1's predicate, with relctl's build type: the parameters a rebuilder needs
/// (tag, targets, the config's digest) and the exact source (the commit).
struct SLSAProvenance: Codable, Sendable, Equatable {
    /// An artifact named by URI and/or digest (in-toto ResourceDescriptor).
    struct ResourceDescriptor: Codable, Sendable, Equatable {
        var uri: String?
        var name: String?
        var digest: [String: String]
    }

    struct ExternalParameters: Codable, Sendable, Equatable {
        var project: String
        var tag: String
        var version: String
        /// Target triples of the archives, sorted.
        var targets: [String]
        /// `relctl.toml` (path relative to the project root) and its SHA-256.
        var config: ResourceDescriptor
    }

    struct InternalParameters: Codable, Sendable, Equatable {
        /// The clock written into archives and handed to builds (SOURCE_DATE_EPOCH or the commit time).
        var sourceDateEpoch: Int
    }

    struct BuildDefinition: Codable, Sendable, Equatable {
        var buildType: String
        var externalParameters: ExternalParameters
        var internalParameters: InternalParameters
        var resolvedDependencies: [ResourceDescriptor]
    }

    struct Builder: Codable, Sendable, Equatable {
        var id: String
        var version: [String: String]?
    }

    struct Metadata: Codable, Sendable, Equatable {
        var invocationId: String?
        var startedOn: String
        var finishedOn: String
    }

    struct RunDetails: Codable, Sendable, Equatable {
        var builder: Builder
        var metadata: Metadata
    }

    var buildDefinition: BuildDefinition
    var runDetails: RunDetails

    /// The build type: relctl's release (build, package, checksum), documented where it points.
    static let buildType =
        "\(ReleaseWorkflow.relctlRepository)/blob/main/docs/proving-a-release.md#build-type-release-v1"

    /// The git commit among the resolved dependencies (`digest.gitCommit`).
    var sourceCommit: String? {
        buildDefinition.resolvedDependencies.lazy.compactMap { $0.digest["gitCommit"] }.first
    }
}
