import Foundation
import RelctlArtifacts
import RelctlBasics

/// The local asset set compared with what a release holds, by name and SHA256.
package struct AssetPlan {
    package struct Pair {
        package var local: Artifact
        package var remote: GitHubAsset
    }

    /// Remote assets an earlier upload left unfinished (state other than `uploaded`).
    package var unfinished: [GitHubAsset] = []
    /// Same name, complete, different bytes.
    package var differing: [Pair] = []
    /// Local assets with no complete remote counterpart.
    package var missing: [Artifact] = []
    /// Complete remote assets that are not in the local set.
    package var extra: [String] = []

    package init(local: [Artifact], remote: [GitHubAsset]) {
        let localNames = Set(local.map(\.name))
        for asset in remote where !asset.isUploaded { unfinished.append(asset) }
        let complete = Dictionary(
            remote.filter(\.isUploaded).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for asset in local {
            if let there = complete[asset.name] {
                if !there.matches(asset) { differing.append(Pair(local: asset, remote: there)) }
            } else {
                missing.append(asset)
            }
        }
        extra = complete.keys.filter { !localNames.contains($0) }.sorted()
    }

    /// What to send: the missing ones and, once deleted, the differing ones.
    package var toUpload: [Artifact] { (missing + differing.map(\.local)).sorted { $0.name < $1.name } }
}
