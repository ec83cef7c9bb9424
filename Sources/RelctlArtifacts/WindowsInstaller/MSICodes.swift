import Crypto
import Foundation

/// The GUIDs of a project's MSIs, derived, never random: RFC 4122 version-5 UUIDs (SHA-1) of a
/// name under relctl's own namespace, upper-case and braced as Windows Installer spells them.
///
/// - UpgradeCode: the project's alone, the same for every version and target, so Windows sees
///   every MSI of the project as one product line (MajorUpgrade replaces the older one).
/// - ProductCode: project, version and target: a new one per version, as a major upgrade needs.
/// - Package code (the summary's revision number): the ProductCode's inputs plus the commit, so
///   two different packages never share it and the same inputs always give the same one.
/// - The component's GUID: project and target, stable across versions (the files it installs keep
///   their paths, so Windows' component rules hold).
package enum MSICodes {
    /// relctl's namespace for MSI GUIDs: uuid5(NAMESPACE_URL, "https://relctl.dev/ns/msi").
    package static let namespace: [UInt8] = [
        0x29, 0xa5, 0x68, 0x27, 0xdd, 0x8c, 0x5c, 0x1b, 0x86, 0xf3, 0x18, 0x0a, 0x6c, 0x0b, 0xd1, 0xba,
    ]

    package static func upgradeCode(project: String) -> String { uuid("upgrade:" + project) }

    package static func productCode(project: String, version: String, target: String) -> String {
        uuid("product:" + project + "\u{0}" + version + "\u{0}" + target)
    }

    package static func packageCode(project: String, version: String, target: String, commit: String) -> String {
        uuid("package:" + project + "\u{0}" + version + "\u{0}" + target + "\u{0}" + commit)
    }

    package static func componentCode(project: String, target: String) -> String {
        uuid("component:" + project + "\u{0}" + target)
    }

    /// `{XXXXXXXX-XXXX-5XXX-YXXX-XXXXXXXXXXXX}` for `name`.
    package static func uuid(_ name: String) -> String {
        var bytes = Array(Insecure.SHA1.hash(data: Data(namespace + Array(name.utf8))).prefix(16))
        bytes[6] = (bytes[6] & 0x0f) | 0x50
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        let hex = bytes.map { String(format: "%02X", $0) }.joined()
        let parts = [
            hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4),
            hex.dropFirst(20),
        ]
        return "{" + parts.joined(separator: "-") + "}"
    }

    /// The MSI ProductVersion of a SemVer version: MAJOR.MINOR.PATCH, within Windows Installer's
    /// limits (255, 255, 65535). A prerelease's tail is dropped (`1.2.0-rc.1` is `1.2.0`): Windows
    /// Installer compares only the three numbers, and the MSI of the final release then replaces
    /// the prerelease's (relctl allows same-version upgrades). Nil with the reason otherwise.
    package static func productVersion(_ version: String) -> (version: String?, problem: String?) {
        let core = version.split(separator: "+", maxSplits: 1)[0].split(separator: "-", maxSplits: 1)[0]
        let parts = core.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let major = Int(parts[0]), let minor = Int(parts[1]), let patch = Int(parts[2]),
            major >= 0, minor >= 0, patch >= 0
        else { return (nil, "is not MAJOR.MINOR.PATCH") }
        guard major <= 255, minor <= 255, patch <= 65535 else {
            return (nil, "is past Windows Installer's limits (major and minor at most 255, patch at most 65535)")
        }
        return ("\(major).\(minor).\(patch)", nil)
    }
}
