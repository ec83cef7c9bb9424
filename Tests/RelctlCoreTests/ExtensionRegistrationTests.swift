import Foundation
import RelctlDistribution
import RelctlModel
import RelctlProject
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject

/// Registration refuses what would shadow a built-in or could not be written in relctl.toml, before
/// any command runs (exit 64). Only refusals are tried here: an accepted extension stays
/// registered for the whole test process (ExtensionPackageCLITests proves the accepted path in
/// a program of its own).
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct ExtensionRegistrationTests {
    private struct NoPublisher: Publisher {
        var id: String { "x" }
        func preflight(_ request: PublishRequest, context: Context) throws {}
        func publish(_ request: PublishRequest, context: Context) async throws -> PublishReport { fatalError() }
        func rehearse(_ request: PublishRequest, context: Context) async throws -> PublishReport { fatalError() }
    }

    private struct NoChannel: Channel {
        var id: String { "x" }
        var title: String { "x" }
        func write(_ release: ChannelRelease) async throws -> ChannelOutput {
            ChannelOutput(channel: "x", files: [], assets: [])
        }
    }

    @Test func aPublisherWithABuiltInsIdOrAnUnwritableIdIsRefused() {
        for id in ["github", "gitlab", "gitea"] {
            var extensions = RelctlExtensions()
            extensions.addPublisher(id: id) { _ in NoPublisher() }
            #expect(throws: ExtensionError.duplicate(what: "publisher", name: id)) { try extensions.install() }
        }
        for id in ["", "Mirror", "my mirror", "-x", "a.b"] {
            var extensions = RelctlExtensions()
            extensions.addPublisher(id: id) { _ in NoPublisher() }
            let error = #expect(throws: ExtensionError.self) { try extensions.install() }
            #expect(error == .badName(what: "publisher id", name: id))
            #expect(error?.exitCode == .usage)
        }
        #expect(PublisherRegistry.knownIDs == ["gitea", "github", "gitlab"], "nothing refused was registered")
    }

    @Test func aChannelWithABuiltInsNameOrAnInvalidNameIsRefused() {
        for id in ["chart", "nix", "homebrew", "scoop"] {
            var extensions = RelctlExtensions()
            extensions.addChannel(id: id) { _ in NoChannel() }
            #expect(throws: ExtensionError.duplicate(what: "channel", name: id)) { try extensions.install() }
        }
        var extensions = RelctlExtensions()
        extensions.addChannel(id: "Update Feed") { _ in NoChannel() }
        #expect(throws: ExtensionError.badName(what: "channel", name: "Update Feed")) { try extensions.install() }
        #expect(ChannelRegistry.addedIDs.isEmpty)
    }
}
