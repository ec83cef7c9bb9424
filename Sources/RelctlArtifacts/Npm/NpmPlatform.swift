import Foundation
import RelctlModel

/// A target in npm's words: `process.platform` (`linux`, `darwin`, `win32`…), `process.arch`
/// (`x64`, `arm64`, `ia32`, `arm`…) and, on Linux, the C library (`glibc`, `musl`), which npm
/// reads from `os`, `cpu` and `libc` in package.json to pick the optional dependency that fits.
package struct NpmPlatform: Sendable, Equatable, Hashable {
    package var os: String
    package var cpu: String
    /// `glibc` or `musl` on Linux; nil elsewhere.
    package var libc: String?

    /// Nil for a target npm has no words for, and for `universal-apple-darwin` (its two slices
    /// are packages of their own).
    package init?(triple: TargetTriple) {
        guard !triple.isUniversal, let arch = triple.canonicalArch else { return nil }
        switch triple.os {
        case "linux": os = "linux"
        case "macos": os = "darwin"
        case "windows": os = "win32"
        case "freebsd", "openbsd", "netbsd", "android": os = triple.os
        case "illumos": os = "sunos"
        default: return nil
        }
        switch arch {
        case "x86_64": cpu = "x64"
        case "aarch64": cpu = "arm64"
        case "i686": cpu = "ia32"
        case "arm": cpu = "arm"
        case "riscv64": cpu = "riscv64"
        case "powerpc64le": cpu = "ppc64"
        case "s390x": cpu = "s390x"
        case "loongarch64": cpu = "loong64"
        default: return nil
        }
        libc = os == "linux" ? ((triple.env ?? "").hasPrefix("musl") ? "musl" : "glibc") : nil
    }

    package init(os: String, cpu: String, libc: String? = nil) {
        self.os = os
        self.cpu = cpu
        self.libc = libc
    }

    /// `linux-x64`, `linux-x64-musl`, `darwin-arm64`, `win32-x64`: the package name's suffix and
    /// the launcher's key (a musl build needs a name of its own beside the glibc one).
    package var suffix: String { os + "-" + cpu + (libc == "musl" ? "-musl" : "") }
}
