import Foundation
import RelctlBasics

/// A release as Gitea's and Forgejo's API v1 return it (swagger model `Release`), the fields relctl reads.
package struct GiteaRelease: Decodable, Sendable, Equatable {
    package var id: Int
    package var tagName: String
    package var draft: Bool
    package var prerelease: Bool
    package var htmlURL: String?

    package enum CodingKeys: String, CodingKey {
        case id, draft, prerelease
        case tagName = "tag_name"
        case htmlURL = "html_url"
    }
}
