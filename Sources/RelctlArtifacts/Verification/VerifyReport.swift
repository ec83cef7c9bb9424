import Foundation
import RelctlBasics

/// The `relctl verify --json` document.
public struct VerifyReport: Codable, Sendable, Equatable {
    /// The checksum file checked, as the user named it.
    public var file: String
    public var files: [VerifiedFile]
    /// True when every file is `ok` (unlisted files count as problems unless allowed).
    package var ok: Bool
    /// True when `--allow-unlisted` made unlisted archives a warning only.
    public var unlistedAllowed: Bool
    /// Per-archive files (`NAME.sha256`) next to a listed archive that disagree with it; they
    /// fail the check like a changed archive, since users verify with them too.
    package var staleSidecars: [String] = []
    /// Signatures of the checksum file checked against a given or configured public key; any
    /// not `ok` fails the check (exit 1).
    public var signatures: [SignatureVerifier.Check] = []
    /// The provenance next to the checksum file, checked against the allowed signers; not `ok`
    /// fails the check (exit 1) with one line per difference.
    public var provenance: ProvenanceVerifier.Check?

    /// One problem per file that is not `ok`, naming the file and what to do; exit 1.
    public var failure: ProblemList? {
        let problems: [any RelctlError] = files.compactMap { file in
            let where_ = file.line.map { "\(self.file):\($0)" } ?? self.file
            switch file.status {
            case .ok: return nil
            case .unlisted where unlistedAllowed: return nil
            case .changed:
                return ChecksumError.mismatch(
                    file: file.name, algorithm: file.algorithm.rawValue, actual: file.actual ?? "",
                    expected: file.expected ?? "", listedAt: where_)
            case .missing:
                return ChecksumError.missing(file: file.name, listedAt: where_)
            case .unlisted:
                return ChecksumError.unlisted(file: file.name, list: self.file)
            }
        }
        let stale: [any RelctlError] = staleSidecars.map { name in
            ChecksumError.staleSidecar(file: name)
        }
        let unsigned: [any RelctlError] = signatures.filter { $0.status != .ok }.map { check in
            SigningError.badSignature(file: check.file, reason: check.reason ?? "does not verify")
        }
        let unproven: [any RelctlError] =
            provenance.flatMap { check in
                check.status == .ok ? nil : [ProvenanceError.mismatch(file: check.file, findings: check.findings)]
            } ?? []
        let signaturesOK = unsigned.isEmpty && unproven.isEmpty
        return (ok && signaturesOK) || (problems + stale + unsigned + unproven).isEmpty
            ? nil : ProblemList(problems + stale + unsigned + unproven)
    }
}
