import Foundation
import RelctlArtifacts
import RelctlBasics

/// A release asset as the REST API returns it.
package struct GitHubAsset: Decodable, Sendable, Equatable {
    package var id: Int
    package var name: String
    /// `uploaded` when complete; anything else (`starter`, `open`) is an upload that never finished.
    package var state: String
    package var size: Int64
    /// `sha256:HEX`, computed by GitHub from the bytes it stored; absent on servers that predate it.
    package var digest: String?

    package var isUploaded: Bool { state == "uploaded" }

    /// The lowercase hex SHA256 when the server reports one.
    package var sha256: String? {
        guard let digest, digest.lowercased().hasPrefix("sha256:") else { return nil }
        return String(digest.dropFirst("sha256:".count)).lowercased()
    }

    /// Whether this asset holds exactly the local file's bytes. Without a digest (older GitHub
    /// Enterprise Server), only the size can be compared.
    package func matches(_ local: Artifact) -> Bool {
        if let sha256 { return sha256 == local.sha256 }
        return size == local.size
    }
}
