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
    /// The target's own archive name template (`[[target]] name`); nil: `[archive] name`.
    package var archiveName: String?
    /// `.exe` on Windows, empty elsewhere.
    package var executableSuffix: String
    package var isRecognized: Bool

    /// The binary's file name on this target (`velo-cli.exe` on Windows).
    package func executableName(_ binary: String) -> String {
        binary.hasSuffix(executableSuffix) ? binary : binary + executableSuffix
    }

    /// The placeholder values a target contributes (`{target}`, `{os}`, `{arch}`, and Go's
    /// `{goos}`, `{goarch}`, `{goarm}`).
    package var placeholders: [String: String] {
        let go = GoPlatform(os: os, arch: arch)
        return [
            "target": triple, "os": os, "arch": arch, "exe": executableSuffix, "goos": go.os, "goarch": go.arch,
            "goarm": go.arm,
        ]
    }

    /// The CPUs (Rust-style names) this target's binaries hold code for: one, both macOS ones for
    /// `universal-apple-darwin`, none for an architecture relctl does not know.
    package var machines: [String] {
        if isUniversal { return TargetTriple.universalSlices.map { TargetTriple($0).canonicalArch ?? "" } }
        return TargetTriple.canonicalArch(arch).map { [$0] } ?? []
    }

    /// `universal-apple-darwin`: one fat Mach-O joined from the two macOS targets' binaries.
    package var isUniversal: Bool { TargetTriple(triple).isUniversal }
}

/// Go's names for a platform (`GOOS`, `GOARCH`, `GOARM`), as GoReleaser and promu spell archives:
/// `linux`/`darwin`/`windows`/`freebsd`, `amd64`/`arm64`/`386`/`arm`. `arm` is `v5`, `v6` or `v7`
/// (empty elsewhere), so `{goarch}{goarm}` spells `armv7` like GoReleaser's default template.
package struct GoPlatform: Sendable, Equatable {
    package var os: String
    package var arch: String
    package var arm: String

    package init(os: String, arch: String) {
        self.os = os == "macos" ? "darwin" : os == "wasi" ? "wasip1" : os
        let canonical = TargetTriple.canonicalArch(arch)
        switch canonical {
        case "x86_64": self.arch = "amd64"
        case "aarch64": self.arch = "arm64"
        case "i686": self.arch = "386"
        case "arm": self.arch = "arm"
        case "riscv64": self.arch = "riscv64"
        case "powerpc64le": self.arch = "ppc64le"
        case "s390x": self.arch = "s390x"
        case "loongarch64": self.arch = "loong64"
        case "mips64": self.arch = "mips64"
        case "wasm32": self.arch = "wasm"
        default: self.arch = arch == "universal" ? "all" : arch
        }
        if canonical == "arm" {
            let version =
                arch.hasPrefix("armv5") ? "5" : arch.hasPrefix("armv7") || arch.hasPrefix("thumbv7") ? "7" : "6"
            self.arm = "v" + version
        } else {
            self.arm = ""
        }
    }
}

/// A target triple (`arch-vendor-os[-env]`) split into the parts relctl uses for defaults.
package struct TargetTriple: Sendable, Hashable, CustomStringConvertible {
    package static let knownArchitectures: Set<String> = [
        "x86_64", "aarch64", "arm64", "i686", "i586", "armv7", "arm", "riscv64gc", "riscv64",
        "powerpc64le", "s390x", "wasm32", "loongarch64", "mips64", "thumbv7neon",
        // Other spellings of the same CPUs (Go's, Debian's, Swift's), read as the Rust-style name.
        "amd64", "armv6", "armv5te", "armv7a", "universal",
    ]
    /// The Rust-style name of an architecture spelling (`amd64` and `x86_64` are `x86_64`, `arm64`
    /// `aarch64`, `armv7` and `thumbv7neon` `arm`), nil for one relctl does not know.
    package static func canonicalArch(_ arch: String) -> String? {
        switch arch {
        case "x86_64", "amd64", "x86_64h": return "x86_64"
        case "aarch64", "arm64", "arm64e": return "aarch64"
        case "i686", "i586", "i386", "x86": return "i686"
        case "riscv64gc", "riscv64": return "riscv64"
        case "powerpc64le", "s390x", "wasm32", "loongarch64", "mips64": return arch
        default: return arch.hasPrefix("arm") || arch.hasPrefix("thumbv") ? "arm" : nil
        }
    }
    package var canonicalArch: String? { Self.canonicalArch(arch) }
    /// The two targets whose binaries a `universal-apple-darwin` target joins.
    package static let universalSlices = ["x86_64-apple-darwin", "aarch64-apple-darwin"]
    /// `universal-apple-darwin`: a fat Mach-O of both macOS CPUs.
    package var isUniversal: Bool { arch == "universal" && os == "macos" }
    /// OS spellings found in triples, mapped to the name relctl uses for `{os}`.
    package static let knownSystems: [String: String] = [
        "linux": "linux", "darwin": "macos", "macos": "macos", "windows": "windows", "freebsd": "freebsd",
        "netbsd": "netbsd", "openbsd": "openbsd", "android": "android", "ios": "ios", "wasi": "wasi",
        "illumos": "illumos", "macosx": "macos",
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
        // Swift's triples carry a deployment version (`arm64-apple-macosx13.0`, `…-ios17.0`).
        let system = osPart.flatMap { Self.knownSystems[$0] ?? Self.knownSystems[Self.withoutVersion($0)] }
        self.os = system ?? osPart ?? "unknown"
        self.isRecognized =
            Self.knownArchitectures.contains(archPart) && system != nil
            && (archPart != "universal" || system == "macos")
    }

    /// `macosx13.0` without its version: `macosx`.
    private static func withoutVersion(_ os: String) -> String {
        String(os.prefix { !$0.isNumber })
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
        case "macos": return triple.canonicalArch == "x86_64" ? "macos-15-intel" : "macos-14"
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

extension RelctlConfig {
    /// The archive name template of `target`: its own `[[target]] name`, else `[archive] name`.
    package func archiveName(for target: Target) -> Template {
        target.archiveName.map(Template.init) ?? archive.name
    }
}
