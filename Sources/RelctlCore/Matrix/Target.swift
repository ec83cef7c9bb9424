import Foundation

/// A target with every default filled in: what a build runs on and how its archive is made.
public struct Target: Sendable, Equatable, Codable {
    public var triple: String
    var os: String
    var arch: String
    var env: String?
    /// The CI runner label (`ubuntu-latest`, `macos-14`, …).
    var runner: String
    /// An archive format id from `ArchiveFormats` (`tar.gz`, `zip`, …).
    var format: String
    var links: LinksPolicy
    /// `.exe` on Windows, empty elsewhere.
    var executableSuffix: String
    var isRecognized: Bool

    /// The binary's file name on this target (`velo-cli.exe` on Windows).
    func executableName(_ binary: String) -> String {
        binary.hasSuffix(executableSuffix) ? binary : binary + executableSuffix
    }

    /// The placeholder values a target contributes (`{target}`, `{os}`, `{arch}`).
    var placeholders: [String: String] { ["target": triple, "os": os, "arch": arch, "exe": executableSuffix] }
}
