import Foundation
import RelctlBasics

/// A release attachment (swagger model `Attachment`). Gitea stores no digest of it, so its bytes
/// are checked by downloading `browser_download_url` and hashing them.
package struct GiteaAttachment: Decodable, Sendable, Equatable {
    package var id: Int
    package var name: String
    package var size: Int64
    package var downloadURL: String

    package enum CodingKeys: String, CodingKey {
        case id, name, size
        case downloadURL = "browser_download_url"
    }
}
