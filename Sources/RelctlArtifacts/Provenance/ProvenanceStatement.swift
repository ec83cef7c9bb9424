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

/// Problems writing or checking a release's provenance. Missing keys and inputs are bad input
/// (exit 2); a provenance that does not match the release is the thing checked being wrong (exit 1).
package enum ProvenanceError: RelctlError, Equatable {
    /// `[provenance] enabled` but no SSH Ed25519 key to sign with.
    case noSSHKey(config: String)
    /// What the statement is made from is not there (manifest.json, the commit's time).
    case missingInput(path: String, reason: String)
    /// The provenance file does not verify or does not describe this release; one line per finding.
    case mismatch(file: String, findings: [String])

    package var exitCode: RelctlExitCode {
        switch self {
        case .mismatch: return .failure
        case .noSSHKey, .missingInput: return .badInput
        }
    }

    package var diagnostics: [Diagnostic] {
        switch self {
        case .noSSHKey(let config):
            return [
                Diagnostic(
                    file: config,
                    "[provenance] enabled needs an SSH Ed25519 key to sign with: set `[sign] ssh-key` or put the key's text in \(SigningKeys.sshKeyVariable)"
                )
            ]
        case .missingInput(let path, let reason): return [Diagnostic(file: path, reason)]
        case .mismatch(let file, let findings): return findings.map { Diagnostic(file: file, $0) }
        }
    }
}

/// A DSSE envelope (github.com/secure-systems-lab/dsse, envelope.md), as in-toto attestations
/// carry them: the payload (base64) with its type, and signatures over the pre-authentication
/// encoding (PAE) of both, so a signature never covers bytes whose type is ambiguous.
package struct DSSEEnvelope: Codable, Sendable, Equatable {
    package struct Signature: Codable, Sendable, Equatable {
        /// Which key signed: here the key's `SHA256:` fingerprint, as `ssh-keygen -lf` prints it.
        package var keyid: String
        /// Base64 of the raw signature (64 bytes for Ed25519).
        package var sig: String
    }

    package static let inTotoPayloadType = "application/vnd.in-toto+json"

    package var payloadType: String
    /// Base64 (standard alphabet, padded) of the payload bytes.
    package var payload: String
    package var signatures: [Signature]

    /// `PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body`, LEN the byte
    /// count in ASCII decimal without leading zeros: what each signature signs.
    package static func preAuthenticationEncoding(payloadType: String, payload: Data) -> Data {
        let type = Data(payloadType.utf8)
        var bytes = Data("DSSEv1 \(type.count) ".utf8)
        bytes.append(type)
        bytes.append(Data(" \(payload.count) ".utf8))
        bytes.append(payload)
        return bytes
    }

    /// Signs `payload` with an OpenSSH Ed25519 key. libsodium's Ed25519 is deterministic
    /// (RFC 8032), so the same payload and key give the same envelope bytes on every machine.
    package static func sign(payload: Data, payloadType: String, key: OpenSSHPrivateKey) -> DSSEEnvelope {
        let message = preAuthenticationEncoding(payloadType: payloadType, payload: payload)
        var secret = Array(key.privateKey.rawRepresentation) + Array(key.privateKey.publicKey.rawRepresentation)
        defer { Sodium.wipe(&secret) }
        let signature = Sodium.sign(Array(message), secretKey: secret)
        return DSSEEnvelope(
            payloadType: payloadType, payload: payload.base64EncodedString(),
            signatures: [
                Signature(
                    keyid: SSHKeyFingerprint.sha256(ofBlob: key.publicKeyBlob),
                    sig: Data(signature).base64EncodedString())
            ])
    }

    /// The decoded payload, or nil when `payload` is not base64.
    package var payloadBytes: Data? { Data(base64Encoded: payload) }

    /// True when `signature` is a valid Ed25519 signature by `publicKey` (32 raw bytes) over this
    /// envelope's PAE.
    package func isValid(_ signature: Signature, publicKey: [UInt8]) -> Bool {
        guard let payload = payloadBytes, let raw = Data(base64Encoded: signature.sig) else { return false }
        let message = Self.preAuthenticationEncoding(payloadType: payloadType, payload: payload)
        return Sodium.verify(Array(raw), message: Array(message), publicKey: publicKey)
    }

    /// One line of JSON (the `.jsonl` form: one envelope per line), keys in a fixed order.
    package func jsonLine() throws -> String { try JSONOutput.compact(self) + "\n" }
}
