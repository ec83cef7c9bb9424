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

/// A target triple (`arch-vendor-os[-env]`) split into the parts relctl uses for defaults.
package struct TargetTriple: Sendable, Hashable, CustomStringConvertible {
    package static let knownArchitectures: Set<String> = [
        "x86_64", "aarch64", "arm64", "i686", "i586", "armv7", "arm", "riscv64gc", "riscv64",
        "powerpc64le", "s390x", "wasm32", "loongarch64", "mips64", "thumbv7neon",
    ]
    /// OS spellings found in triples, mapped to the name relctl uses for `{os}`.
    package static let knownSystems: [String: String] = [
        "linux": "linux", "darwin": "macos", "macos": "macos", "windows": "windows", "freebsd": "freebsd",
        "netbsd": "netbsd", "openbsd": "openbsd", "android": "android", "ios": "ios", "wasi": "wasi",
        "illumos": "illumos",
    ]

    package let raw: String
    package let arch: String
    package let vendor: String?
    /// `linux`, `macos`, `windows`, … (`darwin` is reported as `macos`).
    package let os: String
    package let env: String?
    /// False when the architecture or OS is not one relctl knows; defaults then cannot be chosen.
    package let isRecognized: Bool

    package init(_ raw: String) {
        self.raw = raw
        let parts = raw.split(separator: "-").map(String.init)
        let archPart = parts.first ?? raw
        var vendor: String?
        var osPart: String?
        var env: String?
        if parts.count >= 3 {
            if Self.knownSystems[parts[1]] != nil {
                // `x86_64-linux-gnu`: the vendor is omitted.
                osPart = parts[1]
                env = parts.count > 2 ? parts[2...].joined(separator: "-") : nil
            } else {
                vendor = parts[1]
                osPart = parts[2]
                env = parts.count > 3 ? parts[3...].joined(separator: "-") : nil
            }
        } else if parts.count == 2 {
            osPart = parts[1]
        }
        self.arch = archPart
        self.vendor = vendor
        self.env = env
        let system = osPart.flatMap { Self.knownSystems[$0] }
        self.os = system ?? osPart ?? "unknown"
        self.isRecognized = Self.knownArchitectures.contains(archPart) && system != nil
    }

    package var isWindows: Bool { os == "windows" }
    /// Linux with the GNU C library (`-linux-gnu`, `-linux-gnueabihf`): dynamically linked against
    /// glibc through the FHS loader path.
    package var isGlibcLinux: Bool { os == "linux" && (env ?? "").hasPrefix("gnu") }
    package var description: String { raw }
}

/// Which CI runner each job of a generated workflow runs on: a target's build job on the runner
/// its `[[target]] runner` names, else the default for its OS below; the jobs that only run relctl
/// (plan, merge, publish) on Linux; for GitLab, the hosted runners' tags and images. `ci generate`
/// and `relctl matrix` read them from here.
package enum CIRunners {
    /// The runner for the jobs that need no particular OS (plan, merge, publish).
    package static let coordinator = "ubuntu-latest"

    /// The default runner for a triple, as in the seed's matrix; nil for an OS relctl does not know.
    package static func defaultRunner(for triple: TargetTriple) -> String? {
        switch triple.os {
        case "linux": return coordinator
        // GitHub retired macos-13 on 2025-12-04; macos-15-intel is its last Intel image
        // (actions/runner-images, "Available Images").
        case "macos": return triple.arch == "x86_64" ? "macos-15-intel" : "macos-14"
        case "windows": return "windows-latest"
        default: return nil
        }
    }

    /// `ci generate --provider gitlab`: GitLab's hosted runners are picked by tag and image.
    package enum GitLab {
        /// The image of the Linux jobs: the official Swift image, so the default setup can build
        /// relctl (Ubuntu, root, git); a build needing another toolchain installs it in `[ci] setup`.
        package static let linuxImage = "swift:6.2-noble"
        /// GitLab's hosted macOS runner (Apple silicon; x86_64 through Rosetta 2) and one of the VM
        /// images it offers (macOS and Xcode, which ships Swift; Homebrew preinstalled).
        package static let macOSTag = "saas-macos-medium-m1"
        package static let macOSImage = "macos-15-xcode-16"
        /// GitLab's hosted Windows runner: no image (not the Docker executor), PowerShell as the shell.
        package static let windowsTag = "saas-windows-medium-amd64"
    }
}
