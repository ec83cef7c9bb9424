import Foundation
import RelctlBasics

/// A release as GitLab's Releases API returns it (docs.gitlab.com, "Releases API"), the fields
/// relctl reads. There is no draft: a GitLab release is public once it exists, so relctl creates
/// it last, with every link, after the package files are checked.
package struct GitLabRelease: Decodable, Sendable, Equatable {
    package struct Links: Decodable, Sendable, Equatable {
        package var selfURL: String?
        package enum CodingKeys: String, CodingKey { case selfURL = "self" }
    }
    package struct Assets: Decodable, Sendable, Equatable {
        package var links: [GitLabReleaseLink]?
    }

    package var tagName: String
    package var name: String?
    package var assets: Assets?
    package var links: Links?

    package enum CodingKeys: String, CodingKey {
        case name, assets
        case tagName = "tag_name"
        case links = "_links"
    }
}
