import Foundation
import RelctlBasics

/// A target with every default filled in: what a build runs on and how its archive is made.
public struct Target: Sendable, Equatable, Codable {
    public var triple: String
    package var os: String
    package var arch: String
    package var env: String?
    /// The CI runner label (`ubuntu-latest`, `macos-14`, …).
    package var runner: String
    /// An archive format id from `ArchiveFormats` (`tar.gz`, `zip`, …).
    package var format: String
    package var links: LinksPolicy
    /// `.exe` on Windows, empty elsewhere.
    package var executableSuffix: String
    package var isRecognized: Bool

    /// The binary's file name on this target (`velo-cli.exe` on Windows).
    package func executableName(_ binary: String) -> String {
        binary.hasSuffix(executableSuffix) ? binary : binary + executableSuffix
    }

    /// The placeholder values a target contributes (`{target}`, `{os}`, `{arch}`).
    package var placeholders: [String: String] { ["target": triple, "os": os, "arch": arch, "exe": executableSuffix] }
}
