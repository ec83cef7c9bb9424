import Foundation
import RelctlArtifacts
import RelctlBasics

/// Compares a release's attachments with the local asset set by name, size and SHA256. Gitea
/// reports no digest, so an attachment of the right size is downloaded and hashed, once per
/// attachment id in a run (an attachment's bytes never change under its id).
package struct GiteaAttachmentCheck {
    package struct Plan {
        /// Local assets with no attachment holding their bytes.
        package var missing: [String] = []
        /// Local assets whose name is also (or only) held by an attachment with other bytes: a
        /// download by that name could serve either.
        package var differing: [String] = []
        /// The other-bytes attachments of `differing` names (deleted with --replace on a draft).
        package var differingIDs: [Int] = []
        /// Second identical copies (a retried upload whose first answer was lost).
        package var duplicates: [Int] = []
        /// Attachment names that are not in the local set.
        package var extra: [String] = []
        /// Local assets with a copy holding their bytes.
        package var present: Set<String> = []
    }

    package let api: GiteaReleaseAPI
    private var hashes: [Int: String] = [:]

    package init(api: GiteaReleaseAPI) { self.api = api }

    /// Whether `attachment` holds exactly `asset`'s bytes: its size, then the SHA256 of what it serves.
    package mutating func matches(_ attachment: GiteaAttachment, _ asset: Artifact) async throws -> Bool {
        guard attachment.name == asset.name, attachment.size == asset.size else { return false }
        if let known = hashes[attachment.id] { return known == asset.sha256 }
        let sha256 = try await api.sha256(of: attachment)
        hashes[attachment.id] = sha256
        return sha256 == asset.sha256
    }

    package mutating func plan(_ local: [Artifact], remote: [GiteaAttachment]) async throws -> Plan {
        var plan = Plan()
        plan.extra = Array(Set(remote.map(\.name)).subtracting(local.map(\.name))).sorted()
        for asset in local {
            var good: [Int] = []
            var other: [Int] = []
            for copy in remote.filter({ $0.name == asset.name }).sorted(by: { $0.id < $1.id }) {
                if try await matches(copy, asset) { good.append(copy.id) } else { other.append(copy.id) }
            }
            if good.isEmpty { plan.missing.append(asset.name) } else { plan.present.insert(asset.name) }
            plan.duplicates += good.dropFirst()
            if !other.isEmpty {
                plan.differing.append(asset.name)
                plan.differingIDs += other
            }
        }
        // A name held only by other bytes is differing, not missing.
        plan.missing.removeAll { plan.differing.contains($0) }
        return plan
    }
}
