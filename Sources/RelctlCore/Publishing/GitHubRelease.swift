import Foundation

/// A release as the REST API returns it (the fields relctl reads).
public struct GitHubRelease: Decodable, Sendable, Equatable {
    public var id: Int
    public var tagName: String
    public var name: String?
    public var draft: Bool
    public var prerelease: Bool
    public var htmlURL: String
    /// A URI template (`…/assets{?name,label}`), usually on another host than the API.
    public var uploadURL: String

    enum CodingKeys: String, CodingKey {
        case id, name, draft, prerelease
        case tagName = "tag_name"
        case htmlURL = "html_url"
        case uploadURL = "upload_url"
    }
}
