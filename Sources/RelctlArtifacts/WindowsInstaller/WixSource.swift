import Foundation
import RelctlBasics

/// The WiX source (`.wxs`) wixl compiles into one target's MSI: the binaries in one component
/// under `ProgramFiles64Folder\{project}` (`ProgramFilesFolder` for a 32-bit target), a feature
/// holding it, MajorUpgrade, and the codes `MSICodes` derives. Every value from the project goes
/// through `XMLEmitter`; names are checked first (`problem(inName:)`), since wixl's preprocessor
/// reads `$(…)` in any attribute and Windows refuses some characters in a file name.
package struct WixSource: Sendable, Equatable {
    package struct File: Sendable, Equatable {
        /// The file name installed (`velostream.exe`).
        package var name: String
        /// Where wixl reads it, relative to the folder it runs in.
        package var source: String
    }

    package var project: String
    package var manufacturer: String
    package var productVersion: String
    package var upgradeCode: String
    package var productCode: String
    package var packageCode: String
    package var componentCode: String
    /// wixl's `-a`: `x64` or `x86`.
    package var architecture: String
    package var files: [File]

    /// The component that holds the binaries; the Environment row relctl adds names it.
    package static let componentID = "Binaries"
    /// The install folder's directory id, which the PATH entry expands.
    package static let folderID = "INSTALLFOLDER"

    package var is64Bit: Bool { architecture == "x64" }

    /// Why `name` cannot be a file or folder name in the MSI; nil when it can.
    package static func problem(inName name: String) -> String? {
        if name.isEmpty { return "it is empty" }
        if let bad = name.unicodeScalars.first(where: { $0.value < 0x20 || "\\/:*?\"<>|".unicodeScalars.contains($0) })
        {
            return bad.value < 0x20
                ? "Windows file names cannot hold control characters"
                : "Windows file names cannot hold `\(Character(bad))`"
        }
        if name.hasSuffix(".") || name.hasSuffix(" ") { return "Windows drops a trailing dot or blank from file names" }
        if name.contains("$(") || name.contains("!(") {
            return "wixl's preprocessor would read `$(` or `!(` as a variable"
        }
        if name.utf8.count > 200 { return "longer than 200 bytes" }
        return nil
    }

    /// MSI formatted text holding `value` literally: `[` and `]` are written `[\[]` and `[\]]`.
    package static func formattedLiteral(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "[": out += "[\\[]"
            case "]": out += "[\\]]"
            default: out.append(character)
            }
        }
        return out
    }

    package func render() throws -> String {
        let name = try XMLEmitter.attribute(project, what: "project.name")
        let downgrade = try XMLEmitter.attribute(
            "A newer version of " + Self.formattedLiteral(project) + " is already installed.", what: "project.name")
        let programFiles = is64Bit ? "ProgramFiles64Folder" : "ProgramFilesFolder"
        let win64 = is64Bit ? "yes" : "no"
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<Wix xmlns=\"http://schemas.microsoft.com/wix/2006/wi\">",
            "  <Product Id=\"\(try XMLEmitter.attribute(productCode, what: "ProductCode"))\" Name=\"\(name)\" Language=\"1033\" Version=\"\(try XMLEmitter.attribute(productVersion, what: "version"))\" Manufacturer=\"\(try XMLEmitter.attribute(manufacturer, what: "the manufacturer ([project] maintainer)"))\" UpgradeCode=\"\(try XMLEmitter.attribute(upgradeCode, what: "UpgradeCode"))\">",
            "    <Package Id=\"\(try XMLEmitter.attribute(packageCode, what: "the package code"))\" InstallerVersion=\"500\" Compressed=\"yes\" InstallScope=\"perMachine\" Description=\"\(name)\"/>",
            "    <MajorUpgrade DowngradeErrorMessage=\"\(downgrade)\"/>",
            "    <Media Id=\"1\" Cabinet=\"product.cab\" EmbedCab=\"yes\"/>",
            "    <Directory Id=\"TARGETDIR\" Name=\"SourceDir\">",
            "      <Directory Id=\"\(programFiles)\">",
            "        <Directory Id=\"\(Self.folderID)\" Name=\"\(name)\">",
            "          <Component Id=\"\(Self.componentID)\" Guid=\"\(try XMLEmitter.attribute(componentCode, what: "the component code"))\" Win64=\"\(win64)\">",
        ]
        for (index, file) in files.enumerated() {
            let keyPath = index == 0 ? " KeyPath=\"yes\"" : ""
            lines.append(
                "            <File Id=\"File\(index)\" Name=\"\(try XMLEmitter.attribute(file.name, what: "binary name"))\" Source=\"\(try XMLEmitter.attribute(file.source, what: "binary path"))\"\(keyPath)/>"
            )
        }
        lines += [
            "          </Component>",
            "        </Directory>",
            "      </Directory>",
            "    </Directory>",
            "    <Feature Id=\"Main\" Level=\"1\">",
            "      <ComponentRef Id=\"\(Self.componentID)\"/>",
            "    </Feature>",
            "  </Product>",
            "</Wix>",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The SQL `msibuild` runs on wixl's database. wixl 0.101 (Debian 12's) has no `<Environment>`
    /// and ignores `AllowSameVersionUpgrades`, so relctl adds what they would write:
    /// - the `Environment` table with the PATH row: `=-*PATH` (set at install, removed at uninstall,
    ///   a system variable), value `[~];[INSTALLFOLDER]` (appended: WiX's `Part="last"`), and the
    ///   WriteEnvironmentStrings/RemoveEnvironmentStrings actions at their standard sequence numbers;
    /// - the upgrade row's VersionMax made inclusive (attribute 0x200), so the MSI of a release
    ///   replaces one of the same ProductVersion (a prerelease's, whose tail MSI cannot hold).
    /// Every value is a relctl constant or the ProductVersion (digits and dots, checked).
    package func databaseQueries() -> [String] {
        [
            "CREATE TABLE `Environment` (`Environment` CHAR(72) NOT NULL, `Name` CHAR(255) NOT NULL LOCALIZABLE, `Value` CHAR(255) LOCALIZABLE, `Component_` CHAR(72) NOT NULL PRIMARY KEY `Environment`)",
            "INSERT INTO `Environment` (`Environment`, `Name`, `Value`, `Component_`) VALUES ('PathEntry', '=-*PATH', '[~];[\(Self.folderID)]', '\(Self.componentID)')",
            "INSERT INTO `InstallExecuteSequence` (`Action`, `Sequence`) VALUES ('RemoveEnvironmentStrings', 3300)",
            "INSERT INTO `InstallExecuteSequence` (`Action`, `Sequence`) VALUES ('WriteEnvironmentStrings', 5200)",
            "DELETE FROM `Upgrade` WHERE `ActionProperty` = 'WIX_UPGRADE_DETECTED'",
            "INSERT INTO `Upgrade` (`UpgradeCode`, `VersionMax`, `Attributes`, `ActionProperty`) VALUES ('\(upgradeCode)', '\(productVersion)', 513, 'WIX_UPGRADE_DETECTED')",
        ]
    }
}
