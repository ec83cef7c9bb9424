import Foundation
import RelctlBasics

/// One file of a package (docs.gitlab.com, "Packages API": "List package files"). GitLab keeps
/// every upload of a name as its own package file, and a download by name serves the newest.
package struct GitLabPackageFile: Decodable, Sendable, Equatable {
    package var id: Int
    package var packageID: Int
    package var fileName: String
    package var size: Int64
    /// Lowercase hex, computed by GitLab from the stored bytes.
    package var fileSHA256: String?

    package enum CodingKeys: String, CodingKey {
        case id, size
        case packageID = "package_id"
        case fileName = "file_name"
        case fileSHA256 = "file_sha256"
    }

    /// The copy a download by `name` serves: the newest (highest id) among same-name files.
    package static func newest(_ files: [GitLabPackageFile]) -> [String: GitLabPackageFile] {
        Dictionary(files.map { ($0.fileName, $0) }, uniquingKeysWith: { $0.id > $1.id ? $0 : $1 })
    }
}
