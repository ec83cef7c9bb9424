import Foundation
import RelctlBasics

/// A release as Gitea's and Forgejo's API v1 return it (swagger model `Release`), the fields relctl reads.
package struct GiteaRelease: Decodable, Sendable, Equatable {
    var id: Int
    var tagName: String
    var draft: Bool
    var prerelease: Bool
    var htmlURL: String?

    enum CodingKeys: String, CodingKey {
        case id, draft, prerelease
        case tagName = "tag_name"
        case htmlURL = "html_url"
    }
}
