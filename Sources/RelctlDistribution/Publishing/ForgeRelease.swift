import Foundation

/// A release as GitHub's REST API and Gitea's and Forgejo's API v1 return it: the fields both
/// send alike (`id`, `tag_name`, `draft`, `prerelease`), and `fields`, the forge's own, decoded
/// from the same JSON object and read as if they were the release's (`release.htmlURL`).
@dynamicMemberLookup
package struct ForgeRelease<Fields: Decodable & Sendable & Equatable>: Decodable, Sendable, Equatable, DraftableRelease
{
    package var id: Int
    package var tagName: String
    package var draft: Bool
    package var prerelease: Bool
    package var fields: Fields

    private enum CodingKeys: String, CodingKey {
        case id, draft, prerelease
        case tagName = "tag_name"
    }

    package init(from decoder: any Decoder) throws {
        let json = try decoder.container(keyedBy: CodingKeys.self)
        (id, tagName) = (try json.decode(Int.self, forKey: .id), try json.decode(String.self, forKey: .tagName))
        (draft, prerelease) = (
            try json.decode(Bool.self, forKey: .draft), try json.decode(Bool.self, forKey: .prerelease)
        )
        fields = try Fields(from: decoder)
    }

    package subscript<Value>(dynamicMember field: KeyPath<Fields, Value>) -> Value { fields[keyPath: field] }
}

/// A release's file as both forges return it (GitHub: an asset; Gitea and Forgejo: an
/// attachment): `id`, `name` and `size` alike, and `fields`, the forge's own (GitHub's upload
/// state and digest, Gitea's download URL), read as if they were the asset's.
@dynamicMemberLookup
package struct ForgeAsset<Fields: Decodable & Sendable & Equatable>: Decodable, Sendable, Equatable {
    package var id: Int
    package var name: String
    package var size: Int64
    package var fields: Fields

    private enum CodingKeys: String, CodingKey { case id, name, size }

    package init(from decoder: any Decoder) throws {
        let json = try decoder.container(keyedBy: CodingKeys.self)
        id = try json.decode(Int.self, forKey: .id)
        name = try json.decode(String.self, forKey: .name)
        size = try json.decode(Int64.self, forKey: .size)
        fields = try Fields(from: decoder)
    }

    package subscript<Value>(dynamicMember field: KeyPath<Fields, Value>) -> Value { fields[keyPath: field] }
}
