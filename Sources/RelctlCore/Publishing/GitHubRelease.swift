import Foundation

/// A release as the REST API returns it (the fields relctl reads).
struct GitHubRelease: Decodable, Sendable, Equatable {
    var id: Int
    var tagName: String
    var name: String?
    var draft: Bool
    var prerelease: Bool
    var htmlURL: String
    /// A URI template (`…/assets{?name,label}`), usually on another host than the API.
    var uploadURL: String

    enum CodingKeys: String, CodingKey {
        case id, name, draft, prerelease
        case tagName = "tag_name"
        case htmlURL = "html_url"
        case uploadURL = "upload_url"
    }
}
