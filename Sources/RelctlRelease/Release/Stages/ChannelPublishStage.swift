import Foundation
import RelctlBasics
import RelctlDistribution

/// Publishes the channels once the release is out: the chart to its OCI registry with `--push`,
/// the tap and bucket (whose files point at the release's download URLs) with `--publish`, after
/// the GitHub release. A failure here takes nothing back (the tag is out); it says how to finish,
/// and running that again publishes only what is missing. A dry run rehearses: the registry login,
/// the tap clone and `git push --dry-run`.
struct ChannelPublishStage: ReleaseStage {
    init() {}
    var name: String { "channel-publish" }
    var needs: Set<ReleaseFact> { [.channels, .tag] }
    var produces: Set<ReleaseFact> { [.publishedChannels] }
    var dryRun: DryRunBehaviour { .rehearsal }
    var needsPassingPreflight: Bool { true }

    func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? {
        guard let channels = try? ChannelRegistry.configured(run.config, environment: run.context.environment),
            channels.contains(where: { Self.selected($0, run) })
        else { return "nothing to publish (a chart repository needs --push, a tap or bucket --publish)" }
        return nil
    }

    static func selected(_ channel: any Channel, _ run: ReleaseRun) -> Bool {
        switch channel.publishedBy {
        case .push: return run.options.push
        case .publish: return run.options.publish
        case nil: return false
        }
    }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        guard let checksums = outputs.checksums else { return nil }
        let channels = try ChannelRegistry.configured(run.config, environment: run.context.environment)
        // Once dist/ is sealed the files live there, no longer in the staging folder.
        let dist = outputs.distFiles != nil ? run.distDirectory : run.stagingDirectory
        let release = ChannelStage.release(run, manifest: checksums.manifest, dist: dist)
        var published: [String] = []
        for (channel, output) in zip(channels, outputs.channels ?? []) where Self.selected(channel, run) {
            run.progress.update("publishing \(channel.title)")
            do {
                published += try await channel.publish(release, output)
            } catch let error as RelctlError where !run.isDryRun {
                let step =
                    channel.id == HelmChannel.id
                    ? "relctl chart --tag \(run.tag) --push" : "relctl channel \(channel.id) --tag \(run.tag) --publish"
                throw ProblemList(
                    exitCode: error.exitCode,
                    diagnostics: error.diagnostics + [
                        Diagnostic(
                            "\(run.tag) is released; once fixed, finish with `\(step)` (it publishes only what is missing)"
                        )
                    ])
            }
        }
        outputs.publishedChannels = published
        return published.isEmpty ? "nothing new to publish" : published.joined(separator: ", ")
    }
}
