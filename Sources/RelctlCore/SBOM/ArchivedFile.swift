/// A regular file as stored in an archive, recorded while the archive is written so the SBOM
/// lists exactly what went in without reading the archive again.
struct ArchivedFile: Sendable, Equatable {
    /// The path inside the archive, top-level folder included (as `tar -tzf` prints it).
    var path: String
    var sha256: String
    var size: Int64

    init(path: String, sha256: String, size: Int64) {
        self.path = path
        self.sha256 = sha256
        self.size = size
    }
}
