import Foundation

/// One entry of a Linux package's file system tree, as installed (`/usr/bin/velo-sql`). The same
/// list feeds the deb's data.tar and the rpm's header and cpio payload, so both packages hold the
/// same files with the same modes.
struct PackagedFile: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case directory
        case file(Data)
    }

    /// Absolute installed path without a trailing slash (`/usr/share/doc/velostream`).
    var path: String
    var kind: Kind
    /// Permission bits only (0755, 0644); the file type comes from `kind`.
    var mode: UInt32
    /// Documentation (rpm `%doc`), shown as such by `rpm -qd`.
    var isDocumentation = false
    /// The license text (rpm `%license`).
    var isLicense = false

    init(path: String, kind: Kind, mode: UInt32, isDocumentation: Bool = false, isLicense: Bool = false) {
        self.path = path
        self.kind = kind
        self.mode = mode
        self.isDocumentation = isDocumentation
        self.isLicense = isLicense
    }

    var isDirectory: Bool { kind == .directory }

    var data: Data {
        if case .file(let data) = kind { return data }
        return Data()
    }

    /// `st_mode` with the file type bits.
    var fullMode: UInt32 { (isDirectory ? 0o040000 : 0o100000) | mode }
}
