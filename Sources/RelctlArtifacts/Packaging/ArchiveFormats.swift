import RelctlBasics

/// The archive formats relctl can write, keyed by id. The packaging code registers a writer
/// for each; config validation uses the ids.
package enum ArchiveFormats {
    /// Known format ids, in the order they are listed to users.
    package static let ids: [String] = ["tar.gz", "tar.xz", "tar.zst", "zip"]

    /// The file extension for a format id (`.tar.gz`).
    package static func fileExtension(_ id: String) -> String { "." + id }
}
