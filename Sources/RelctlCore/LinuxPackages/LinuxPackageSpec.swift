/// Everything one package is made from, resolved from the config, the release and one target:
/// the writers only lay it out in their format.
struct LinuxPackageSpec: Sendable {
    /// Lowercase package name (`velostream`).
    var name: String
    var version: LinuxPackageVersion
    var architecture: LinuxArchitecture
    var metadata: PackageMetadata
    /// Debian `Section`.
    var section: String
    /// rpm `Group`.
    var group: String
    /// In the format's own syntax.
    var depends: [String]
    /// rpm `Release`.
    var release: String
    /// The one time every entry, header field and changelog date gets (the commit's time or
    /// SOURCE_DATE_EPOCH).
    var mtime: Int
    /// What the release notes say changed, one line per change.
    var changes: [String]
    /// The binaries, under `/usr/bin`, and the copyright file; each format adds its own files.
    var files: [PackagedFile]
    /// rpm: the key that signs the header, or nil for an unsigned package.
    package var signer: OpenPGPSigningKey? = nil

    /// `/usr/share/doc/{name}`.
    var documentationFolder: String { "/usr/share/doc/\(name)" }
}
