import Crypto
import Foundation
import FoundationNetworking
import Synchronization

/// A base image for one platform: its manifest, its config, and where its blobs are cached.
struct BaseImage: Sendable {
    var manifest: OCIManifest
    var manifestDigest: String
    var config: OCIImageConfig
    var cache: URL

    func blob(_ digest: String) -> URL { cache.appendingPathComponent(String(digest.dropFirst("sha256:".count))) }
}
