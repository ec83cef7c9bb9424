import Foundation

/// A release asset as the REST API returns it.
public struct GitHubAsset: Decodable, Sendable, Equatable {
    public var id: Int
    public var name: String
    /// `uploaded` when complete; anything else (`starter`, `open`) is an upload that never finished.
    public var state: String
    public var size: Int64
    /// `sha256:HEX`, computed by GitHub from the bytes it stored; absent on servers that predate it.
    public var digest: String?

    public var isUploaded: Bool { state == "uploaded" }

    /// The lowercase hex SHA256 when the server reports one.
    public var sha256: String? {
        guard let digest, digest.lowercased().hasPrefix("sha256:") else { return nil }
        return String(digest.dropFirst("sha256:".count)).lowercased()
    }

    /// Whether this asset holds exactly the local file's bytes. Without a digest (older GitHub
    /// Enterprise Server), only the size can be compared.
    public func matches(_ local: LocalAsset) -> Bool {
        if let sha256 { return sha256 == local.sha256 }
        return size == local.size
    }
}
