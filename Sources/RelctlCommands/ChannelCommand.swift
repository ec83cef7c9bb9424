import ArgumentParser
import RelctlBasics
import RelctlDistribution
import RelctlModel
import RelctlProject
import RelctlRelease

struct ChannelCommand: RelctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "channel",
        abstract:
            "Write one channel's files into dist/ (\(ChannelRegistry.builtInOrder.joined(separator: ", ")) or a plugin), and publish them.",
        discussion: """
            Run after `relctl package` and `relctl checksum`: reads dist/manifest.json and writes the channel's \
            files (assets are listed in SHA256SUMS; dist/homebrew and dist/scoop are not). --publish commits \
            the formula, manifest, PKGBUILD or winget manifests to the tap, bucket, AUR repository or fork and \
            pushes (nothing when unchanged), pushes a chart, \
            or hands a plugin the dry-run flag off. A plugin is `relctl-channel-NAME` on PATH or a [[channel]] \
            with `command`; see docs/channels.md for its JSON protocol. Exit 1 when a channel fails, 2 for an \
            unknown channel (the known ones are listed), a bad tag or missing dist/manifest.json.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The channel: \(ChannelRegistry.builtInOrder.joined(separator: ", ")), or a plugin's name.")
    var name: String
    @Option(help: "The release tag, e.g. v1.2.0 (checked against the manifests first).") var tag: String
    @Option(help: ArgumentHelp("Folder holding manifest.json and the archives (default: dist/).", valueName: "dir"))
    var dist: String?
    @Flag(help: "Publish what was written (tap/bucket commit and push, chart push).") var publish = false
    @Flag(name: .customLong("dry-run"), help: "Tell the channel this is a dry run: write files, publish nothing.")
    var dryRun = false

    func execute(_ context: Context) async throws {
        let config = try ConfigLoader.load(path: global.config, context: context)
        let checked = try ReleaseIdentity.check(tag, config: config, manifests: .compared)
        let report = try await ChannelStep.run(
            name: name, checked: checked, config: config, context: context, dist: dist, publish: publish,
            dryRun: dryRun)
        if global.json { try emitJSON(report, context) }
    }
}
