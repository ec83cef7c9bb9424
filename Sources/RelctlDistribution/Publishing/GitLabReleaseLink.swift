import Foundation
import RelctlBasics

/// A release asset link (docs.gitlab.com, "Release links API"). `link_type` is one of `other`,
/// `runbook`, `image`, `package`; `direct_asset_path` gives it the permanent URL
/// `…/-/releases/TAG/downloads/PATH`.
package struct GitLabReleaseLink: Codable, Sendable, Equatable {
    package var name: String
    package var url: String
    package var directAssetPath: String?
    package var linkType: String?
    /// In answers only: GitLab's permanent `…/-/releases/TAG/downloads/PATH` alias of this same
    /// link (or `url` itself when it has no path). It redirects to `url`, so `url` is what a
    /// download gets.
    package var directAssetURL: String?

    package enum CodingKeys: String, CodingKey {
        case name, url
        case directAssetPath = "direct_asset_path"
        case linkType = "link_type"
        case directAssetURL = "direct_asset_url"
    }

    /// The link for one asset: `package` for what users install (archives, Linux packages),
    /// `other` for the list, signatures, manifests.
    package init(asset name: String, url: String) {
        self.name = name
        self.url = url
        directAssetPath = "/" + name
        let packages = [".tar.gz", ".tgz", ".tar.xz", ".tar.zst", ".zip", ".deb", ".rpm", ".apk"]
        linkType = packages.contains { name.hasSuffix($0) } ? "package" : "other"
    }
}
