import Foundation
import RelctlBasics

/// A native package format: its file name for a package, and the package's bytes. Registered by
/// id in `LinuxPackageFormats`.
package protocol LinuxPackageFormat: Sendable {
    /// `deb`, `rpm`: the `[[package]] format` value.
    var id: String { get }
    /// The file name the distribution's tools expect (`velostream_1.0.0_amd64.deb`).
    func fileName(_ spec: LinuxPackageSpec) -> String
    /// The whole package, byte-identical for the same spec.
    func write(_ spec: LinuxPackageSpec) throws -> Data
}
