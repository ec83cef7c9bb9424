import RelctlBasics

/// One C library relctl links from the system, as a `.systemLibrary` target of Package.swift,
/// with the packages that provide it on Debian/Ubuntu (apt) and macOS (Homebrew).
public struct SystemLibrary: Sendable, Equatable {
    /// The `.systemLibrary` target's name.
    public let module: String
    /// The pkg-config name Package.swift gives on Linux (nil: the library is found on the
    /// compiler's default paths and linked by RelctlArtifacts' own linker settings).
    public let linuxPkgConfig: String?
    /// The pkg-config name Package.swift gives on macOS, where Homebrew's prefix
    /// (/opt/homebrew on Apple silicon) is not on the compiler's default paths.
    public let macOSPkgConfig: String?
    public let apt: String
    public let brew: String
    /// Homebrew does not link a keg-only formula into its prefix (libarchive: macOS ships its
    /// own); its pkg-config file stays in `$(brew --prefix FORMULA)/lib/pkgconfig`, which
    /// SwiftPM searches only for a target that names the formula as its `.brew` provider.
    public let kegOnly: Bool
}
