import Foundation
import RelctlBasics

package struct BuildSettings: Sendable {
    /// Shell command run per target; nil means there is nothing to build (prebuilt binaries).
    package var command: Template?
    package var binaries: [String] = []
    /// Binaries packaged when the build made them and skipped (with a note) when it did not: a
    /// tool built only on some platforms.
    package var optionalBinaries: [String] = []
    package var binaryDirectory: Template = Template("target/{target}/release")
    /// Extra environment variables for the build command.
    package var environment: [String: String] = [:]
    package init() {}
}
