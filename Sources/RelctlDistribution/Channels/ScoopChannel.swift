import Foundation
import RelctlBasics
import RelctlModel

/// `[scoop] bucket = …`: `dist/scoop/bucket/{project}.json`, a Scoop manifest with one url + hash
/// per architecture from this release's Windows archives, `bin` naming every binary, and
/// `checkver`/`autoupdate` so the bucket's own tooling can follow later releases. `--publish`
/// commits it to the bucket and pushes.
package struct ScoopChannel: TapChannel {
    package static let id = "scoop"
    package static let folder = "scoop"
    package var settings: ChannelSettings.Repository

    package var id: String { Self.id }
    package var title: String { "scoop manifest" }

    package static func repositoryPath(name: String) -> String { "bucket/\(name).json" }

    package func contents(_ release: ChannelRelease) throws -> Data { try Self.manifest(release, settings: settings) }

    package func commitMessage(_ release: ChannelRelease) -> String {
        "\(release.project): Update to version \(release.version)"
    }

    package static func manifest(_ release: ChannelRelease, settings: ChannelSettings.Repository) throws -> Data {
        let architectures: [(scoop: String, cpu: String)] = [
            ("64bit", "x86_64"), ("32bit", "i686"), ("arm64", "aarch64"),
        ]
        var architecture: [String: Any] = [:]
        var autoupdate: [String: Any] = [:]
        for entry in architectures {
            guard let archive = PlatformArchives.pick(release.archives, os: "windows", cpu: entry.cpu, formats: ["zip"])
            else { continue }
            let url = try release.url(of: archive, for: Self.id)
            var current: [String: Any] = ["url": url, "hash": archive.sha256]
            var next: [String: Any] = ["url": versioned(url, release.version)]
            // A flat archive unpacks in place: Scoop needs no folder to step into.
            if let folder = PlatformArchives.topFolder(archive, flat: !release.config.archive.topFolder) {
                current["extract_dir"] = folder
                next["extract_dir"] = versioned(folder, release.version)
            }
            architecture[entry.scoop] = current
            autoupdate[entry.scoop] = next
        }
        guard !architecture.isEmpty else { throw ChannelError.noArchives(channel: Self.id, wanted: "Windows (zip)") }
        let repositoryPage = release.downloadBase.flatMap(HomebrewChannel.repositoryPage)
        let project = release.config.project.metadata
        var manifest: [String: Any] = [
            "version": release.version,
            "description": HomebrewChannel.summary(settings.description ?? project.description) ?? release.project,
            "homepage": settings.homepage ?? project.homepage ?? repositoryPage ?? release.downloadBase ?? "",
            "license": settings.license ?? project.license ?? "Unknown",
            "architecture": architecture,
            "bin": release.config.build.binaries.map { "bin\\\($0).exe" },
            "autoupdate": [
                "architecture": autoupdate,
                "hash": ["url": "$baseurl/\(release.config.checksum.algorithm.uppercased())SUMS"],
            ],
        ]
        if let repositoryPage, repositoryPage.hasPrefix("https://github.com/") {
            manifest["checkver"] = ["github": repositoryPage]
        } else {
            let prefix = NSRegularExpression.escapedPattern(for: release.config.project.tagFormat.prefix)
            manifest["checkver"] = ["url": manifest["homepage"] ?? "", "regex": "\(prefix)([\\d.]+)"]
        }
        var data = try JSONSerialization.data(
            withJSONObject: manifest, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// `url` with the release's version replaced by Scoop's `$version`.
    package static func versioned(_ text: String, _ version: String) -> String {
        text.replacingOccurrences(of: version, with: "$version")
    }
}
