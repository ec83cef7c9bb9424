import RelctlBasics
import RelctlModel

/// A target triple's architecture as Debian and RPM name it.
package struct LinuxArchitecture: Sendable, Equatable {
    package var debian: String
    package var rpm: String
    /// rpm's lead `archnum` (rpmrc's `arch_canon` numbers); rpm reads the header's Arch instead.
    package var rpmLeadNumber: UInt16

    /// nil for an architecture neither distribution family ships, or a non-Linux triple.
    package init?(triple: String) {
        let parsed = TargetTriple(triple)
        guard parsed.os == "linux" else { return nil }
        let hardFloat = parsed.env.map { $0.hasSuffix("hf") } ?? false
        switch parsed.arch {
        case "x86_64": (debian, rpm, rpmLeadNumber) = ("amd64", "x86_64", 1)
        case "aarch64", "arm64": (debian, rpm, rpmLeadNumber) = ("arm64", "aarch64", 19)
        case "armv7", "thumbv7neon": (debian, rpm, rpmLeadNumber) = ("armhf", "armv7hl", 12)
        case "arm" where hardFloat: (debian, rpm, rpmLeadNumber) = ("armhf", "armv7hl", 12)
        case "arm": (debian, rpm, rpmLeadNumber) = ("armel", "armv5tel", 12)
        case "i686", "i586": (debian, rpm, rpmLeadNumber) = ("i386", "i686", 1)
        case "riscv64gc", "riscv64": (debian, rpm, rpmLeadNumber) = ("riscv64", "riscv64", 22)
        case "powerpc64le": (debian, rpm, rpmLeadNumber) = ("ppc64el", "ppc64le", 16)
        case "s390x": (debian, rpm, rpmLeadNumber) = ("s390x", "s390x", 15)
        case "loongarch64": (debian, rpm, rpmLeadNumber) = ("loong64", "loongarch64", 23)
        default: return nil
        }
    }
}
