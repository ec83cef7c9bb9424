import Foundation
import RelctlBasics

/// A native package format: its file name for a package, and the package itself. Registered by
/// id in `LinuxPackageFormats`.
package protocol LinuxPackageFormat: Sendable {
    /// `deb`, `rpm`: the `[[package]] format` value.
    var id: String { get }
    /// The file name the distribution's tools expect (`velostream_1.0.0_amd64.deb`).
    func fileName(_ spec: LinuxPackageSpec) -> String
    /// Writes the whole package to `url` atomically, byte-identical for the same spec, streaming:
    /// its memory does not grow with the files it holds.
    func write(_ spec: LinuxPackageSpec, to url: URL) throws -> WrittenPackage
}

/// A package as written: what the release's checksums and manifest list.
package struct WrittenPackage: Sendable, Equatable {
    package var size: Int64
    package var sha256: String
    package var sha512: String
}

/// What a writer read of one file while packaging it: its size and a digest (MD5 for the deb's
/// md5sums, SHA-256 for the rpm's file digests), lowercase hex.
package struct FileContents: Sendable, Equatable {
    package var size: Int
    package var digest: String
}

/// The package formats by id; an unknown id lists the known ones.
package enum LinuxPackageFormats {
    package static let all: [String: any LinuxPackageFormat] = [
        DebPackageWriter().id: DebPackageWriter(),
        RpmPackageWriter().id: RpmPackageWriter(),
    ]

    package static var ids: [String] { all.keys.sorted() }

    package static func format(_ id: String) throws -> any LinuxPackageFormat {
        guard let format = all[id] else { throw LinuxPackageError.unknownFormat(id: id, known: ids) }
        return format
    }
}
