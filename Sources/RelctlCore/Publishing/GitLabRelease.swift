import Foundation
import RelctlBasics

/// A release as GitLab's Releases API returns it (docs.gitlab.com, "Releases API"), the fields
/// relctl reads. There is no draft: a GitLab release is public once it exists, so relctl creates
/// it last, with every link, after the package files are checked.
package struct GitLabRelease: Decodable, Sendable, Equatable {
    struct Links: Decodable, Sendable, Equatable {
        var selfURL: String?
        enum CodingKeys: String, CodingKey { case selfURL = "self" }
    }
    struct Assets: Decodable, Sendable, Equatable {
        var links: [GitLabReleaseLink]?
    }

    var tagName: String
    var name: String?
    var assets: Assets?
    var links: Links?

    enum CodingKeys: String, CodingKey {
        case name, assets
        case tagName = "tag_name"
        case links = "_links"
    }
}
