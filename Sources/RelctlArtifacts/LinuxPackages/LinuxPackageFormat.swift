import Foundation
import RelctlBasics
import RelctlModel

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

/// A target triple's architecture as Debian and RPM name it.
package struct LinuxArchitecture: Sendable, Equatable {
    package var debian: String
    package var rpm: String
    /// rpm's lead `archnum` (rpmrc's `arch_canon` numbers); rpm reads the header's Arch instead.
    package var rpmLeadNumber: UInt16

    /// nil for an architecture neither distribution family ships, or a non-Linux triple.
    package init?(triple: String) {
        let parsed = TargetTriple(triple)
        guard parsed.os == "linux" else { return nil }
        let hardFloat = parsed.env.map { $0.hasSuffix("hf") } ?? false
        switch parsed.arch {
        case "x86_64": (debian, rpm, rpmLeadNumber) = ("amd64", "x86_64", 1)
        case "aarch64", "arm64": (debian, rpm, rpmLeadNumber) = ("arm64", "aarch64", 19)
        case "armv7", "thumbv7neon": (debian, rpm, rpmLeadNumber) = ("armhf", "armv7hl", 12)
        case "arm" where hardFloat: (debian, rpm, rpmLeadNumber) = ("armhf", "armv7hl", 12)
        case "arm": (debian, rpm, rpmLeadNumber) = ("armel", "armv5tel", 12)
        case "i686", "i586": (debian, rpm, rpmLeadNumber) = ("i386", "i686", 1)
        case "riscv64gc", "riscv64": (debian, rpm, rpmLeadNumber) = ("riscv64", "riscv64", 22)
        case "powerpc64le": (debian, rpm, rpmLeadNumber) = ("ppc64el", "ppc64le", 16)
        case "s390x": (debian, rpm, rpmLeadNumber) = ("s390x", "s390x", 15)
        case "loongarch64": (debian, rpm, rpmLeadNumber) = ("loong64", "loongarch64", 23)
        default: return nil
        }
    }
}
