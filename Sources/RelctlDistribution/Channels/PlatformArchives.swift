import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// The one archive per OS and CPU that a package manager installs: for Linux a static (musl)
/// build first, then a GNU one; archives in a format the manager cannot unpack are left out.
package enum PlatformArchives {
    /// `x86_64`/`amd64` → `x86_64`, `aarch64`/`arm64` → `aarch64`, `i686`/`i586` → `i686`; else nil.
    package static func cpu(_ triple: TargetTriple) -> String? {
        switch triple.arch {
        case "x86_64", "amd64": return "x86_64"
        case "aarch64", "arm64": return "aarch64"
        case "i686", "i586": return "i686"
        default: return nil
        }
    }

    /// The archive for `os` (`linux`, `macos`, `windows`) and `cpu`, among `formats`.
    package static func pick(
        _ archives: [Artifact], os: String, cpu: String, formats: Set<String>
    ) -> Artifact? {
        let candidates = archives.filter {
            $0.triple.os == os && Self.cpu($0.triple) == cpu && formats.contains($0.format)
        }
        return candidates.min { rank($0) < rank($1) }
    }

    private static func rank(_ archive: Artifact) -> (Int, String) {
        let env = archive.triple.env ?? ""
        return (env.hasPrefix("musl") ? 0 : env.hasPrefix("gnu") ? 1 : 2, archive.name)
    }

    /// The archive's single top-level folder: its name without the format's extension; nil for a
    /// flat archive (`[archive] top-folder = false`), whose entries sit at its root.
    package static func topFolder(_ archive: Artifact, flat: Bool) -> String? {
        if flat { return nil }
        let suffix = "." + archive.format
        return archive.name.hasSuffix(suffix) ? String(archive.name.dropLast(suffix.count)) : archive.name
    }

    /// `sha256-BASE64`, the SRI form Nix wants, from a hex SHA-256.
    package static func sri(hex: String) -> String {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return "sha256-" + Data(bytes).base64EncodedString()
    }
}
