import RelctlBasics

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
