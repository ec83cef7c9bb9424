import Foundation
import RelctlBasics

/// One file to attach to a release, hashed locally.
public struct LocalAsset: Sendable, Equatable {
    /// The asset name: the file's name in dist/.
    public package(set) var name: String
    public package(set) var url: URL
    public package(set) var size: Int64
    /// Lowercase hex SHA256 of the file as it is now.
    public package(set) var sha256: String

    package init(name: String, url: URL, size: Int64, sha256: String) {
        self.name = name
        self.url = url
        self.size = size
        self.sha256 = sha256
    }

    /// The media type announced on upload; GitHub serves the asset with it.
    public var contentType: String {
        if name.hasSuffix(".json") { return "application/json" }
        if name.hasSuffix(".tar.gz") || name.hasSuffix(".tgz") { return "application/gzip" }
        if name.hasSuffix(".zip") { return "application/zip" }
        if name.hasSuffix(".tar.xz") { return "application/x-xz" }
        if name.hasSuffix(".tar.zst") { return "application/zstd" }
        if name.hasSuffix(".deb") { return "application/vnd.debian.binary-package" }  // IANA-registered
        if name.hasSuffix(".rpm") { return "application/x-rpm" }
        if name == "SHA256SUMS" || name == "SHA512SUMS" || name.hasSuffix(".sha256") || name.hasSuffix(".sig")
            || name.hasSuffix(".minisig")
        {
            return "text/plain"
        }
        return "application/octet-stream"
    }
}
