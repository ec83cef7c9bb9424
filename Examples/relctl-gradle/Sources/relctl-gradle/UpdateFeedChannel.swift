import Foundation
import RelctlBasics
import RelctlDistribution

/// A self-update feed: one JSON file per release, uploaded with it, that an installed program
/// fetches from `releases/latest/download/<project>-update.json` to learn the newest version
/// and the archive (URL and SHA-256) for its own target.
///
/// ```toml
/// [[channel]]
/// name = "update-feed"
/// file = "velostream-update.json"   # optional; default <project>-update.json
/// ```
///
/// The file depends on the release only (keys sorted, no clock), so the same release gives the
/// same bytes, and it is a release asset: relctl lists it in SHA256SUMS and publishes it.
struct UpdateFeedChannel: Channel {
    static let id = "update-feed"
    let file: String?

    init(settings: [String: String]) throws {
        for key in settings.keys where key != "file" {
            throw UpdateFeedError.unknownSetting(key)
        }
        if let file = settings["file"], file.isEmpty || file.contains("/") || file.hasPrefix(".") {
            throw UpdateFeedError.badFileName(file)
        }
        file = settings["file"]
    }

    var id: String { Self.id }
    var title: String { "update feed" }

    private struct Feed: Encodable {
        struct Download: Encodable {
            var archive: String
            var url: String
            var sha256: String
            var size: Int64
        }
        var project: String
        var version: String
        var tag: String
        var commit: String
        var targets: [String: Download]
    }

    func write(_ release: ChannelRelease) async throws -> ChannelOutput {
        var targets: [String: Feed.Download] = [:]
        for archive in release.archives {
            // One archive per target: the first format listed (relctl lists them in a fixed order).
            guard targets[archive.target] == nil else { continue }
            targets[archive.target] = Feed.Download(
                archive: archive.name, url: try release.url(of: archive, for: Self.id), sha256: archive.sha256,
                size: archive.size)
        }
        let feed = Feed(
            project: release.project, version: release.version, tag: release.tag, commit: release.commit,
            targets: targets)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let name = file ?? "\(release.project)-update.json"
        try AtomicFile.write(try encoder.encode(feed) + Data("\n".utf8), to: release.dist.appendingPathComponent(name))
        return ChannelOutput(channel: Self.id, files: [name], assets: [name])
    }
}

enum UpdateFeedError: RelctlError {
    case unknownSetting(String)
    case badFileName(String)

    var exitCode: RelctlExitCode { .badInput }

    var diagnostics: [Diagnostic] {
        switch self {
        case .unknownSetting(let key):
            return [Diagnostic("[[channel]] `update-feed` has no setting `\(key)`; it knows `file`")]
        case .badFileName(let name):
            return [
                Diagnostic(
                    "[[channel]] `update-feed` `file` must be a plain file name such as \"app-update.json\", found `\(name)`"
                )
            ]
        }
    }
}
