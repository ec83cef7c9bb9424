import Foundation

struct BuildSettings: Sendable {
    /// Shell command run per target; nil means there is nothing to build (prebuilt binaries).
    var command: Template?
    var binaries: [String] = []
    /// Binaries packaged when the build made them and skipped (with a note) when it did not: a
    /// tool built only on some platforms.
    var optionalBinaries: [String] = []
    var binaryDirectory: Template = Template("target/{target}/release")
    /// Extra environment variables for the build command.
    var environment: [String: String] = [:]
    init() {}
}
