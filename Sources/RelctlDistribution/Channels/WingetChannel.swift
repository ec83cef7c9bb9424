import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// `[winget] identifier = …`: the version, installer and default-locale manifests (schema 1.6.0)
/// of this release's Windows zip archives, written to `dist/winget/manifests/…` in winget-pkgs'
/// layout. Each archive is a `zip` installer of `portable` nested files (every `[build]` binary,
/// with its name as the command alias), `InstallerSha256` the release's; with `[windows] msi = true`
/// the target's MSI takes the zip's place (`InstallerType: wix`, its ProductCode and UpgradeCode).
/// `--publish` commits them
/// to the branch `{identifier}-{version}` of the configured fork of winget-pkgs; opening the pull
/// request upstream is left to the maintainer (winget-pkgs' own review asks for it by hand).
package struct WingetChannel: Channel {
    package static let id = "winget"
    package static let folder = "winget"
    package static let manifestVersion = "1.6.0"
    package var identifier: String
    package var settings: ChannelSettings.Repository

    package var id: String { Self.id }
    package var title: String { "winget manifests" }
    package var publishedBy: ChannelPublishFlag? { .publish }

    /// `manifests/a/Acme/Velostream/1.0.0`, winget-pkgs' folder for this version.
    package static func manifestFolder(identifier: String, version: String) -> String {
        let parts = identifier.split(separator: ".").map(String.init)
        return "manifests/\(identifier.prefix(1).lowercased())/\(parts.joined(separator: "/"))/\(version)"
    }

    package func write(_ release: ChannelRelease) async throws -> ChannelOutput {
        var paths: [String] = []
        for (name, text) in try Self.manifests(release, identifier: identifier, settings: settings) {
            let path = "\(Self.folder)/\(Self.manifestFolder(identifier: identifier, version: release.version))/\(name)"
            let destination = release.dist.appendingPathComponent(path)
            try FileSystem.createDirectory(destination.deletingLastPathComponent())
            try AtomicFile.write(text, to: destination)
            paths.append(path)
        }
        return ChannelOutput(channel: id, files: paths, assets: [])
    }

    package func publish(_ release: ChannelRelease, _ output: ChannelOutput) async throws -> [String] {
        let folder = Self.manifestFolder(identifier: identifier, version: release.version)
        var files: [String: URL] = [:]
        for path in output.files {
            files[folder + "/" + (path as NSString).lastPathComponent] = release.dist.appendingPathComponent(path)
        }
        return try await TapRepository(channel: id, url: settings.gitURL, context: release.context).publish(
            files: files, message: "New version: \(identifier) version \(release.version)", time: release.time,
            dryRun: release.dryRun, branch: "\(identifier)-\(release.version)")
    }

    package static func manifests(
        _ release: ChannelRelease, identifier: String, settings: ChannelSettings.Repository
    ) throws -> [(String, String)] {
        let parts = identifier.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2,
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } })
        else {
            throw RepositoryError.badValue(
                field: "[winget] identifier", value: identifier,
                reason: "must be `Publisher.Package` (letters, digits, `-`, `_`, dot-separated)")
        }
        var installers = ""
        // An MSI (`[windows] msi = true`) is installed in place of the zip: winget runs it as a
        // `wix` installer, and tracks it by its ProductCode and UpgradeCode.
        let msis = release.archives.filter { $0.format == "msi" }
        for (architecture, cpu) in [("x64", "x86_64"), ("arm64", "aarch64"), ("x86", "i686")] {
            if let msi = PlatformArchives.pick(msis, os: "windows", cpu: cpu, formats: ["msi"]) {
                let productCode = MSICodes.productCode(
                    project: release.project, version: release.version, target: msi.target)
                installers += "- Architecture: \(RepositoryText.yamlQuoted(architecture))\n"
                installers += "  InstallerType: wix\n"
                installers += "  Scope: machine\n"
                installers += "  InstallerUrl: \(RepositoryText.yamlQuoted(try release.url(of: msi, for: Self.id)))\n"
                installers += "  InstallerSha256: \(RepositoryText.yamlQuoted(msi.sha256.uppercased()))\n"
                installers += "  ProductCode: \(RepositoryText.yamlQuoted(productCode))\n"
                installers += "  AppsAndFeaturesEntries:\n"
                installers +=
                    "  - UpgradeCode: \(RepositoryText.yamlQuoted(MSICodes.upgradeCode(project: release.project)))\n"
                installers += "    ProductCode: \(RepositoryText.yamlQuoted(productCode))\n"
                continue
            }
            guard let archive = PlatformArchives.pick(release.archives, os: "windows", cpu: cpu, formats: ["zip"])
            else { continue }
            // A flat archive (`[archive] top-folder = false`) holds bin\ at its root.
            let top =
                PlatformArchives.topFolder(archive, flat: !release.config.archive.topFolder).map { $0 + "\\" } ?? ""
            installers += "- Architecture: \(RepositoryText.yamlQuoted(architecture))\n"
            if !msis.isEmpty { installers += "  InstallerType: zip\n  NestedInstallerType: portable\n" }
            installers += "  InstallerUrl: \(RepositoryText.yamlQuoted(try release.url(of: archive, for: Self.id)))\n"
            installers += "  InstallerSha256: \(RepositoryText.yamlQuoted(archive.sha256.uppercased()))\n"
            installers += "  NestedInstallerFiles:\n"
            for binary in release.config.build.binaries {
                installers += "  - RelativeFilePath: \(RepositoryText.yamlQuoted(top + "bin\\\(binary).exe"))\n"
                installers += "    PortableCommandAlias: \(RepositoryText.yamlQuoted(binary))\n"
            }
        }
        guard !installers.isEmpty else { throw ChannelError.noArchives(channel: Self.id, wanted: "Windows (zip)") }
        let metadata = release.config.project.metadata
        let date = Date(timeIntervalSince1970: TimeInterval(release.time))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let head: [(String, String)] = [("PackageIdentifier", identifier), ("PackageVersion", release.version)]
        let version = RepositoryText.wingetManifest(
            schema: "version.\(manifestVersion)", head + [("DefaultLocale", "en-US")],
            tail: [("ManifestType", "version"), ("ManifestVersion", manifestVersion)])
        let installer = RepositoryText.wingetManifest(
            schema: "installer.\(manifestVersion)",
            head
                + (msis.isEmpty ? [("InstallerType", "zip"), ("NestedInstallerType", "portable")] : [])
                + [("ReleaseDate", formatter.string(from: date))],
            blocks: "Installers:\n" + installers,
            tail: [("ManifestType", "installer"), ("ManifestVersion", manifestVersion)])
        let description =
            settings.description ?? metadata.description.map { String($0.split(separator: "\n").first ?? "") }
            ?? release.project
        var locale =
            head + [
                ("PackageLocale", "en-US"), ("Publisher", String(parts[0])), ("PackageName", release.project),
                ("License", settings.license ?? metadata.license ?? "Proprietary"), ("ShortDescription", description),
            ]
        if let homepage = settings.homepage ?? metadata.homepage
            ?? release.downloadBase.flatMap(HomebrewChannel.repositoryPage)
        {
            locale.append(("PackageUrl", homepage))
        }
        let defaultLocale = RepositoryText.wingetManifest(
            schema: "defaultLocale.\(manifestVersion)", locale,
            tail: [("ManifestType", "defaultLocale"), ("ManifestVersion", manifestVersion)])
        return [
            ("\(identifier).yaml", version), ("\(identifier).installer.yaml", installer),
            ("\(identifier).locale.en-US.yaml", defaultLocale),
        ]
    }
}
