import RelctlBasics

/// Everything one package is made from, resolved from the config, the release and one target:
/// the writers only lay it out in their format.
package struct LinuxPackageSpec: Sendable {
    /// Lowercase package name (`velostream`).
    package var name: String
    package var version: LinuxPackageVersion
    package var architecture: LinuxArchitecture
    package var metadata: PackageMetadata
    /// Debian `Section`.
    package var section: String
    /// rpm `Group`.
    package var group: String
    /// In the format's own syntax.
    package var depends: [String]
    /// rpm `Release`.
    package var release: String
    /// The one time every entry, header field and changelog date gets (the commit's time or
    /// SOURCE_DATE_EPOCH).
    package var mtime: Int
    /// What the release notes say changed, one line per change.
    package var changes: [String]
    /// The binaries, under `/usr/bin`, and the copyright file; each format adds its own files.
    package var files: [PackagedFile]
    /// rpm: the key that signs the header, or nil for an unsigned package.
    package var signer: OpenPGPSigningKey? = nil

    /// `/usr/share/doc/{name}`.
    package var documentationFolder: String { "/usr/share/doc/\(name)" }
}
