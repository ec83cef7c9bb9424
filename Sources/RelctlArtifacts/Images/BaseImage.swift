import Crypto
import Foundation
import FoundationNetworking
import RelctlBasics
import Synchronization

/// A base image for one platform: its manifest, its config, and where its blobs are cached.
package struct BaseImage: Sendable {
    package var manifest: OCIManifest
    package var manifestDigest: String
    package var config: OCIImageConfig
    package var cache: URL

    package func blob(_ digest: String) -> URL {
        cache.appendingPathComponent(String(digest.dropFirst("sha256:".count)))
    }
}
