import Foundation
import RelctlBasics

/// A release as the REST API returns it (the fields relctl reads).
package struct GitHubRelease: Decodable, Sendable, Equatable {
    package var id: Int
    package var tagName: String
    package var name: String?
    package var draft: Bool
    package var prerelease: Bool
    package var htmlURL: String
    /// A URI template (`…/assets{?name,label}`), usually on another host than the API.
    package var uploadURL: String

    package enum CodingKeys: String, CodingKey {
        case id, name, draft, prerelease
        case tagName = "tag_name"
        case htmlURL = "html_url"
        case uploadURL = "upload_url"
    }
}
