import Foundation

/// A target with every default filled in: what a build runs on and how its archive is made.
public struct Target: Sendable, Equatable, Codable {
    public var triple: String
    public var os: String
    public var arch: String
    public var env: String?
    /// The CI runner label (`ubuntu-latest`, `macos-14`, …).
    public var runner: String
    /// An archive format id from `ArchiveFormats` (`tar.gz`, `zip`, …).
    public var format: String
    public var links: LinksPolicy
    /// `.exe` on Windows, empty elsewhere.
    public var executableSuffix: String
    public var isRecognized: Bool

    /// The binary's file name on this target (`velo-cli.exe` on Windows).
    public func executableName(_ binary: String) -> String {
        binary.hasSuffix(executableSuffix) ? binary : binary + executableSuffix
    }

    /// The placeholder values a target contributes (`{target}`, `{os}`, `{arch}`).
    public var placeholders: [String: String] { ["target": triple, "os": os, "arch": arch, "exe": executableSuffix] }
}
