import Foundation
import RelctlBasics

/// One entry of a Linux package's file system tree, as installed (`/usr/bin/velo-sql`). The same
/// list feeds the deb's data.tar and the rpm's header and cpio payload, so both packages hold the
/// same files with the same modes.
package struct PackagedFile: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case directory
        case file(Data)
    }

    /// Absolute installed path without a trailing slash (`/usr/share/doc/velostream`).
    package var path: String
    package var kind: Kind
    /// Permission bits only (0755, 0644); the file type comes from `kind`.
    package var mode: UInt32
    /// Documentation (rpm `%doc`), shown as such by `rpm -qd`.
    package var isDocumentation = false
    /// The license text (rpm `%license`).
    package var isLicense = false

    package init(path: String, kind: Kind, mode: UInt32, isDocumentation: Bool = false, isLicense: Bool = false) {
        self.path = path
        self.kind = kind
        self.mode = mode
        self.isDocumentation = isDocumentation
        self.isLicense = isLicense
    }

    package var isDirectory: Bool { kind == .directory }

    package var data: Data {
        if case .file(let data) = kind { return data }
        return Data()
    }

    /// `st_mode` with the file type bits.
    package var fullMode: UInt32 { (isDirectory ? 0o040000 : 0o100000) | mode }
}
