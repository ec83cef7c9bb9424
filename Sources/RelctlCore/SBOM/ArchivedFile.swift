import RelctlBasics

/// A regular file as stored in an archive, recorded while the archive is written so the SBOM
/// lists exactly what went in without reading the archive again.
package struct ArchivedFile: Sendable, Equatable {
    /// The path inside the archive, top-level folder included (as `tar -tzf` prints it).
    package var path: String
    package var sha256: String
    package var size: Int64

    package init(path: String, sha256: String, size: Int64) {
        self.path = path
        self.sha256 = sha256
        self.size = size
    }
}
