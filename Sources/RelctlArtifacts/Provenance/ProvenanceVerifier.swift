import Foundation
import RelctlBasics
import RelctlModel

/// The provenance half of `relctl verify`: `{project}-{tag}.intoto.jsonl` next to the checksum
/// file must be a DSSE envelope signed by a key the allowed-signers file lists, whose statement
/// names exactly the checksum file's entries (names and digests) and the commit the tag points
/// at. Every difference is a finding of its own, so a changed byte is named, not just "bad".
public enum ProvenanceVerifier {
    /// The outcome in `relctl verify --json`.
    public struct Check: Codable, Sendable, Equatable {
        package enum Status: String, Codable, Sendable {
            case ok, bad, missing
        }
        public var file: String
        package var status: Status
        /// The allowed-signers principals whose key signed.
        package var signer: String?
        /// The tag and commit the provenance records.
        package var tag: String?
        package var commit: String?
        package var subjects: Int = 0
        /// One line per difference found (empty when `ok`).
        public var findings: [String] = []

        /// The line `verify` prints when the provenance is good.
        public var summary: String {
            "\(file): good provenance by \(signer ?? "the given key"): \(subjects) subject(s), commit \(commit?.prefix(12) ?? "none")"
        }
    }

    /// Checks the provenance next to `sums` (as the user named it) when an allowed-signers file
    /// is given (`--allowed-signers`, relative to the working folder) or configured (`[sign]
    /// allowed-signers`, relative to the project root). Nil when there is nothing to check.
    public static func verify(
        sums shown: String, allowedSigners flag: String?, config: RelctlConfig, context: Context
    ) async throws -> Check? {
        let sumsURL = context.resolve(shown)
        let directory = sumsURL.deletingLastPathComponent()
        let manifest = try? ReleaseManifest.read(in: directory)
        let name = fileName(in: directory, manifest: manifest)
        let file = ((shown as NSString).deletingLastPathComponent as NSString).appendingPathComponent(
            name ?? ProvenanceWriter.fileName(project: config.project.name, tag: "TAG"))
        let signersText: (String, String)? =
            try flag.map {
                (try SignatureVerifier.read(context.resolve($0).path, shown: $0, flag: "--allowed-signers"), $0)
            }
            ?? config.sign.allowedSigners.map {
                (try SigningKeys.readFile($0, key: "allowed-signers", root: config.root), $0)
            }
        guard let name, FileSystem.exists(atPath: directory.appendingPathComponent(name).path) else {
            guard signersText != nil, config.provenance.enabled else { return nil }
            return Check(
                file: file, status: .missing,
                findings: [
                    "missing: [provenance] enabled and an allowed-signers file is given, but there is no provenance next to \(sumsURL.lastPathComponent); download it with the release or run `relctl sign`"
                ])
        }
        guard let (text, source) = signersText else {
            context.console.info("\(file): not checked; pass --allowed-signers FILE or set [sign] allowed-signers")
            return nil
        }
        let signers = try AllowedSigners(text: text, file: source)
        let sums = try ChecksumFile.read(sumsURL, displayPath: shown)
        let envelopeData: Data
        switch FileSystem.contents(of: directory.appendingPathComponent(name), limit: StrictJSON.defaultSizeLimit) {
        case .whole(let data)?: envelopeData = data
        case .tooLarge(let limit)?:
            return Check(
                file: file, status: .bad,
                findings: [StrictJSON.Problem.tooLarge(limit: limit).description + "; not a provenance relctl wrote"])
        case nil: envelopeData = Data()
        }
        var check = check(
            envelope: envelopeData, file: file, sums: sums, sumsName: sumsURL.lastPathComponent, signers: signers,
            signersFile: source)
        if let manifest, let tag = check.tag, !manifest.tag.isEmpty, tag != manifest.tag {
            check.findings.append("records tag \(tag), but manifest.json describes \(manifest.tag)")
        }
        if let recorded = check.commit {
            check.findings += await commitFindings(
                recorded: recorded, tag: check.tag ?? manifest?.tag, manifest: manifest, config: config,
                context: context)
        }
        check.status = check.findings.isEmpty ? .ok : .bad
        return check
    }

    /// Every check that needs no git: the envelope, its signature, the statement and its subjects.
    package static func check(
        envelope data: Data, file: String, sums: ChecksumFile, sumsName: String, signers: AllowedSigners,
        signersFile: String
    ) -> Check {
        var check = Check(file: file, status: .bad)
        let line = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first { !$0.isEmpty }
        // A signed document must read one way only: a key given twice is refused before decoding.
        if let line, let problem = StrictJSON.problem(in: Data(line.utf8)) {
            check.findings.append("the DSSE envelope is ambiguous: \(problem)")
            return check
        }
        guard let line, let envelope = try? JSONDecoder().decode(DSSEEnvelope.self, from: Data(line.utf8)) else {
            check.findings.append("not a DSSE envelope (one JSON object with payloadType, payload and signatures)")
            return check
        }
        if envelope.payloadType != DSSEEnvelope.inTotoPayloadType {
            check.findings.append(
                "payloadType is `\(envelope.payloadType)`, not `\(DSSEEnvelope.inTotoPayloadType)`")
        }
        // Base64 that is not canonical (stray bits in the last character) would decode to the
        // same bytes: such a change must be found too.
        guard let payload = envelope.payloadBytes, payload.base64EncodedString() == envelope.payload else {
            check.findings.append("the payload is not canonical base64")
            return check
        }
        for signature in envelope.signatures
        where Data(base64Encoded: signature.sig)?.base64EncodedString() != signature.sig {
            check.findings.append("the signature of keyid \(signature.keyid) is not canonical base64")
        }
        check.signer = signer(of: envelope, signers: signers)
        if check.signer == nil {
            let keyids = envelope.signatures.map(\.keyid).joined(separator: ", ")
            check.findings.append(
                envelope.signatures.isEmpty
                    ? "the envelope carries no signature"
                    : "no signature verifies with a key of \(signersFile) whose fingerprint is its keyid (\(keyids)): the provenance was altered or signed by another key"
            )
        }
        if let problem = StrictJSON.problem(in: payload) {
            check.findings.append("the in-toto statement (the signed payload) is ambiguous: \(problem)")
            return check
        }
        guard let statement = try? JSONDecoder().decode(ProvenanceStatement.self, from: payload) else {
            check.findings.append("the payload is not an in-toto statement with a SLSA provenance predicate")
            return check
        }
        if statement.type != ProvenanceStatement.statementType {
            check.findings.append("_type is `\(statement.type)`, not `\(ProvenanceStatement.statementType)`")
        }
        if statement.predicateType != ProvenanceStatement.slsaPredicateType {
            check.findings.append(
                "predicateType is `\(statement.predicateType)`, not `\(ProvenanceStatement.slsaPredicateType)`")
        }
        check.subjects = statement.subject.count
        check.findings += subjectFindings(statement.subject, sums: sums, sumsName: sumsName)
        check.tag = statement.predicate.buildDefinition.externalParameters.tag
        check.commit = statement.predicate.sourceCommit
        if check.commit == nil { check.findings.append("names no git commit among its resolved dependencies") }
        return check
    }

    /// The principals of the first allowed key (namespace `file`, the release files') whose
    /// signature verifies and whose fingerprint is the signature's keyid (relctl's contract, so
    /// a changed keyid is a difference too).
    package static func signer(of envelope: DSSEEnvelope, signers: AllowedSigners) -> String? {
        for signature in envelope.signatures {
            for signer in signers.signers where signer.namespaces?.contains(SSHSignature.fileNamespace) ?? true {
                guard SSHKeyFingerprint.sha256(ofBlob: signer.keyBlob) == signature.keyid,
                    let key = SSHSignature.ed25519Key(fromBlob: signer.keyBlob)
                else { continue }
                if envelope.isValid(signature, publicKey: Array(key.rawRepresentation)) { return signer.principals }
            }
        }
        return nil
    }

    /// Subjects and checksum entries must be the same set of names with the same digests.
    package static func subjectFindings(
        _ subjects: [ProvenanceStatement.Subject], sums: ChecksumFile, sumsName: String
    ) -> [String] {
        var findings: [String] = []
        var listed: [String: ChecksumFile.Entry] = [:]
        for entry in sums.entries { listed[entry.name] = entry }
        var seen: Set<String> = []
        for subject in subjects {
            seen.insert(subject.name)
            guard let entry = listed[subject.name] else {
                findings.append("subject \(subject.name): in the provenance, not in \(sumsName)")
                continue
            }
            let recorded = subject.digest[entry.algorithm.rawValue]
            if recorded != entry.digest {
                findings.append(
                    "subject \(subject.name): \(entry.algorithm.rawValue) \(recorded ?? "(none)") in the provenance, \(entry.digest) in \(sumsName)"
                )
            }
        }
        for entry in sums.entries where !seen.contains(entry.name) {
            findings.append("\(entry.name): listed in \(sumsName), not a subject of the provenance")
        }
        return findings
    }

    /// The recorded commit against the tag's commit in this repository, else manifest.json's.
    package static func commitFindings(
        recorded: String, tag: String?, manifest: ReleaseManifest?, config: RelctlConfig, context: Context
    ) async -> [String] {
        if let tag, let tagged = try? await Git(directory: config.root, context: context).commit(of: tag) {
            return tagged == recorded
                ? [] : ["records commit \(recorded), but tag \(tag) points at \(tagged) in this repository"]
        }
        if let manifest, !manifest.commit.isEmpty, manifest.commit != recorded {
            return ["records commit \(recorded), but manifest.json says \(manifest.commit)"]
        }
        return []
    }

    /// The provenance's name: from manifest.json's project and tag, else the one `*.intoto.jsonl`.
    package static func fileName(in directory: URL, manifest: ReleaseManifest?) -> String? {
        if let manifest, !manifest.tag.isEmpty {
            return ProvenanceWriter.fileName(project: manifest.project, tag: manifest.tag)
        }
        let found = ((try? FileSystem.names(in: directory)) ?? []).filter {
            $0.hasSuffix(ProvenanceWriter.fileExtension)
        }
        return found.count == 1 ? found[0] : nil
    }
}
