import Foundation
import RelctlArtifacts
import RelctlBasics

/// A file attached to a release is an `Artifact` of the release's dist/ (its name is the asset
/// name, its SHA-256 hashed as the file is now); these are what the forges' uploads need of it.
extension Artifact {
    /// The file to send; an artifact without a path is the file of that name in the working folder.
    /// Public: a publisher an extension adds reads the file through it (Examples/relctl-gradle).
    public var fileURL: URL {
        AbsolutePath(path ?? name, relativeTo: AbsolutePath(FileSystem.currentDirectory)).url
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
