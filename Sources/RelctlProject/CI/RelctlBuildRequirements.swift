import RelctlBasics

/// What a machine needs beside Swift to build relctl: the one list that Package.swift, the
/// generated "Install relctl" step, scripts/install-deps, relctl's own relctl.toml and the
/// docs are checked against (BuildRequirementsTests fails when any of them disagrees).
public enum RelctlBuildRequirements {
    public static let libraries: [SystemLibrary] = [
        SystemLibrary(
            module: "CArchive", linuxPkgConfig: "libarchive", macOSPkgConfig: "libarchive",
            apt: "libarchive-dev", brew: "libarchive", kegOnly: true),
        // No pkg-config on Linux: its `-ldeflate` would link the shared library, and RelctlArtifacts
        // links the static one (faster; see Package.swift).
        SystemLibrary(
            module: "CDeflate", linuxPkgConfig: nil, macOSPkgConfig: "libdeflate",
            apt: "libdeflate-dev", brew: "libdeflate", kegOnly: false),
        SystemLibrary(
            module: "CSodium", linuxPkgConfig: "libsodium", macOSPkgConfig: "libsodium",
            apt: "libsodium-dev", brew: "libsodium", kegOnly: false),
    ]

    /// SwiftPM runs pkg-config to find the libraries. Homebrew's `pkg-config` is an alias of
    /// `pkgconf`; the formula is named by its own name.
    public static let aptTools = ["pkg-config"]
    public static let brewTools = ["pkgconf"]

    /// What relctl's release build (scripts/build-release, `RELCTL_STATIC=1` in Package.swift) adds
    /// on Linux: the -dev packages holding the static archives libarchive.a pulls in
    /// (`pkg-config --static --libs libarchive`: nettle, acl, lzma, zstd, lz4, bz2, zlib, libxml2
    /// with its ICU), and what scripts/build-static-curl needs to build the static libcurl that
    /// `--static-swift-stdlib`'s FoundationNetworking links (`-lcurl`): libssl-dev's libssl.a and
    /// libcrypto.a, dpkg-dev's dpkg-source (and make) for `apt-get source curl`, gcc. A release
    /// binary then needs only the C library family.
    public static let staticAptPackages = [
        "nettle-dev", "libacl1-dev", "liblzma-dev", "libzstd-dev", "liblz4-dev", "libbz2-dev", "zlib1g-dev",
        "libxml2-dev", "libicu-dev", "libssl-dev", "dpkg-dev", "gcc",
    ]

    /// The install command of every generated apt line: it waits up to ten minutes for the dpkg
    /// lock instead of failing at once with exit 100 when a runner's unattended upgrades or another
    /// job's install holds it. (`apt-get update` takes the lists lock, which apt 2.6 does not wait
    /// for under this option: measured, so only the install carries it.)
    public static let aptGetInstall = "apt-get install -y -qq -o DPkg::Lock::Timeout=600"

    /// `apt-get install` arguments, libraries first.
    public static var aptPackages: [String] { libraries.map(\.apt) + aptTools }
    /// `brew install` arguments, libraries first.
    public static var brewPackages: [String] { libraries.map(\.brew) + brewTools }

    /// The shell lines that install the packages on a GitHub-hosted Linux or macOS runner
    /// (bash; `RUNNER_OS` set by the runner). Keg-only formulae's pkg-config folders are
    /// exported too, for a build that does not go through SwiftPM's provider search.
    package static var runnerInstallLines: [String] {
        installLines(linux: "[ \"$RUNNER_OS\" = Linux ]", macOS: "[ \"$RUNNER_OS\" = macOS ]", sudo: "sudo ")
    }

    /// The same on a GitLab job: the Linux jobs run as root in a Docker image (no sudo there),
    /// the macOS ones on GitLab's macOS VM; neither sets `RUNNER_OS`.
    package static var gitLabInstallLines: [String] {
        installLines(linux: "[ \"$(uname -s)\" = Linux ]", macOS: "[ \"$(uname -s)\" = Darwin ]", sudo: "")
    }

    private static func installLines(linux: String, macOS: String, sudo: String) -> [String] {
        var lines = [
            "if \(linux); then",
            "  \(sudo)apt-get update -qq && \(sudo)\(aptGetInstall) \(aptPackages.joined(separator: " "))",
            "elif \(macOS); then",
            "  brew install \(brewPackages.joined(separator: " "))",
        ]
        let kegOnly = libraries.filter(\.kegOnly).map { "$(brew --prefix \($0.brew))/lib/pkgconfig" }
        if !kegOnly.isEmpty {
            lines.append("  PKG_CONFIG_PATH=\"\(kegOnly.joined(separator: ":"))${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}\"")
            lines.append("  export PKG_CONFIG_PATH")
        }
        lines.append("fi")
        return lines
    }
}
