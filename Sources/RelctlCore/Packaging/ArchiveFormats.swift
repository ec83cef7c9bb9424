/// The archive formats relctl can write, keyed by id. The packaging code registers a writer
/// for each; config validation uses the ids.
enum ArchiveFormats {
    /// Known format ids, in the order they are listed to users.
    static let ids: [String] = ["tar.gz", "tar.xz", "tar.zst", "zip"]

    /// The file extension for a format id (`.tar.gz`).
    static func fileExtension(_ id: String) -> String { "." + id }
}
