import Foundation
import RelctlBasics
import RelctlModel

/// The names a wheel is made of: the distribution's normalised name (PEP 503), its escaped form in
/// file names (PEP 427/491), the PEP 440 version a SemVer release maps to, and the platform tag
/// of each target (PEP 600 manylinux, PEP 656 musllinux, macOS, Windows).
package enum WheelName {
    /// PEP 508's name grammar: ASCII letters and digits, with `.`, `_`, `-` inside.
    package static func problem(inName name: String) -> String? {
        name.wholeMatch(of: /[A-Za-z0-9]([A-Za-z0-9._\-]*[A-Za-z0-9])?/) == nil
            ? "`[pypi] package` `\(Console.printable(name))` must be ASCII letters, digits, `.`, `_` or `-`, starting and ending with a letter or digit (PEP 508)"
            : nil
    }

    /// PEP 503: lowercase, every run of `-`, `_`, `.` one `-` (`Velo_Stream` → `velo-stream`).
    package static func normalized(_ name: String) -> String {
        name.lowercased().replacing(/[-_.]+/, with: "-")
    }

    /// The name in a wheel's file and folder names (PEP 427 as PEP 491 escapes it): the
    /// normalised name with `-` as `_` (`velo-stream` → `velo_stream`).
    package static func escaped(_ name: String) -> String {
        normalized(name).replacingOccurrences(of: "-", with: "_")
    }

    /// The import package the wheel holds beside the scripts (an `__init__.py` only, so the
    /// wheel's library is not empty): the escaped name, `_` first when it starts with a digit.
    package static func module(_ name: String) -> String {
        let escaped = escaped(name)
        return escaped.first?.isNumber == true ? "_" + escaped : escaped
    }

    /// The PEP 440 version of a release version, normalised as `packaging.version` prints it:
    /// SemVer prereleases map to PEP 440 phases (`1.2.0-rc.1` → `1.2.0rc1`, `-alpha.2` → `a2`,
    /// `-beta.3` → `b3`, `-dev.4` → `.dev4`); a version with no PEP 440 spelling, or with build
    /// metadata (a local label PyPI refuses), is an error naming it.
    package static func version(_ text: String) throws -> String {
        if let semver = try? SemanticVersion(parsing: text) {
            guard let pep440 = PEP440Version(semver: semver) else {
                throw PythonWheelError.badVersion(
                    version: text, reason: PEP440Version.refusal(for: semver) ?? "it has no PEP 440 spelling")
            }
            guard pep440.local == nil else {
                throw PythonWheelError.badVersion(
                    version: text,
                    reason:
                        "its build metadata would be a PEP 440 local label (`+…`), which PyPI refuses; release it without `+…`"
                )
            }
            return pep440.description
        }
        // A project versioned by PEP 440 already (`version-scheme`, a Python manifest).
        guard let pep440 = PEP440Version(text) else {
            throw PythonWheelError.badVersion(version: text, reason: "it is neither SemVer nor PEP 440")
        }
        guard pep440.local == nil else {
            throw PythonWheelError.badVersion(
                version: text, reason: "a PEP 440 local label (`+…`) is refused by PyPI; release it without `+…`")
        }
        return pep440.description
    }

    /// `{name}-{version}-py3-none-{platform}.whl`.
    package static func fileName(package: String, version: String, platform: String) -> String {
        "\(escaped(package))-\(version)-py3-none-\(platform).whl"
    }

    /// The oldest glibc a manylinux wheel claims when the binary asks for nothing newer (or for
    /// nothing: a static binary): 2.17, manylinux2014's floor, which every pip since 19.3 reads.
    package static let glibcFloor = (major: 2, minor: 17)

    /// The platform tag of a target's wheel; nil for a target PyPI has no tag for (FreeBSD,
    /// WebAssembly, a CPU the tags do not name). `glibc` is the newest `GLIBC_x.y` the binaries
    /// need (`ELFVersionNeeds`); the tag claims the later of that and `glibcFloor`.
    package static func platformTag(triple: String, glibc: (major: Int, minor: Int)? = nil) -> String? {
        let parsed = TargetTriple(triple)
        switch parsed.os {
        case "linux":
            let env = parsed.env ?? ""
            let arch: String
            switch parsed.canonicalArch {
            case "x86_64": arch = "x86_64"
            case "aarch64": arch = "aarch64"
            case "i686": arch = "i686"
            case "powerpc64le": arch = "ppc64le"
            case "s390x": arch = "s390x"
            case "riscv64": arch = "riscv64"
            case "arm" where parsed.arch.hasPrefix("armv7") || parsed.arch.hasPrefix("thumbv7"): arch = "armv7l"
            default: return nil
            }
            if env.hasPrefix("musl") { return "musllinux_1_2_\(arch)" }
            guard env.hasPrefix("gnu") else { return nil }
            var floor = glibcFloor
            if let glibc, (glibc.major, glibc.minor) > (floor.major, floor.minor) { floor = glibc }
            return "manylinux_\(floor.major)_\(floor.minor)_\(arch)"
        case "macos":
            if parsed.isUniversal { return "macosx_10_12_universal2" }
            switch parsed.canonicalArch {
            case "aarch64": return "macosx_11_0_arm64"
            case "x86_64": return "macosx_10_12_x86_64"
            default: return nil
            }
        case "windows":
            switch parsed.canonicalArch {
            case "x86_64": return "win_amd64"
            case "aarch64": return "win_arm64"
            case "i686": return "win32"
            default: return nil
            }
        default:
            return nil
        }
    }
}
