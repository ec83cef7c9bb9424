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
    /// The other formats this target ships (`format = ["tar.gz", "zip"]`): one archive each, from
    /// one build. Nil when it ships one.
    package var extraFormats: [String]?
    /// Every format this target ships, the first one first.
    package var formats: [String] { [format] + (extraFormats ?? []) }

    /// This target, packaged in `format` only (the one archive of it `Packager` writes).
    package func packaged(as format: String) -> Target {
        var copy = self
        copy.format = format
        copy.extraFormats = nil
        return copy
    }
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
