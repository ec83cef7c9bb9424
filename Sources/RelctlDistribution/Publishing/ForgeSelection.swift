import Foundation
import RelctlBasics
import RelctlModel

/// The forges one `publish` sends a release to, in the contract's order (github, gitlab, gitea,
/// then the publishers extensions added, by id): every forge `[publish]` names, or only
/// `--forge NAME`. With no forge named at all, GitHub, as
/// before there were others (its repository then comes from GITHUB_REPOSITORY or the remote).
/// Every forge is checked before the first request (tokens, servers, projects: exit 2 with
/// nothing sent), then they are published one after the other; a failure stops there and says
/// which are done, and the same command run again finishes the rest (the done ones are checked
/// and left as they are).
package struct ForgeSelection: Sendable {
    package static let order = [GitHubPublisher.id, GitLabPublisher.id, GiteaPublisher.id]

    package let publishers: [any Publisher]

    package init(settings: PublishSettings, only: String? = nil, http: (any HTTPClient)? = nil) throws {
        let ids: [String]
        if let only {
            _ = try PublisherRegistry.publisher(for: only, http: http)  // an unknown id lists the known ones
            ids = [only]
        } else {
            let named =
                zip(Self.order, [settings.github, settings.gitlab, settings.gitea]).filter { $0.1 != nil }.map(\.0)
                + settings.extensions.keys.sorted()
            ids = named.isEmpty ? [GitHubPublisher.id] : named
        }
        publishers = try ids.map { try PublisherRegistry.publisher(for: $0, http: http) }
    }

    package var ids: [String] { publishers.map(\.id) }

    /// Every forge's setup, before any request or any hashing.
    package func preflight(_ request: PublishRequest, context: Context) throws {
        for publisher in publishers { try publisher.preflight(request, context: context) }
    }

    package func publish(_ request: PublishRequest, context: Context) async throws -> [PublishReport] {
        try await each(request, context: context) { try await $0.publish(request, context: context) }
    }

    package func rehearse(_ request: PublishRequest, context: Context) async throws -> [PublishReport] {
        try await each(request, context: context) { try await $0.rehearse(request, context: context) }
    }

    /// Every forge's published release of the tag against the release's files (reads only): the
    /// problems of all forges together, so one run names every differing asset.
    package func comparePublished(_ request: PublishRequest, context: Context) async throws -> [PublishedForgeRelease] {
        var found: [PublishedForgeRelease] = []
        var problems: [Diagnostic] = []
        var code = RelctlExitCode.success
        for publisher in publishers {
            do {
                if let published = try await publisher.comparePublished(request, context: context) {
                    found.append(published)
                }
            } catch let error as any RelctlError {
                problems += error.diagnostics
                code = max(code, error.exitCode)
            }
        }
        if !problems.isEmpty { throw ProblemList(exitCode: code, diagnostics: problems) }
        return found
    }

    private func each(
        _ request: PublishRequest, context: Context, _ step: (any Publisher) async throws -> PublishReport
    ) async throws -> [PublishReport] {
        var reports: [PublishReport] = []
        for (index, publisher) in publishers.enumerated() {
            do {
                reports.append(try await step(publisher))
            } catch let error as any RelctlError where publishers.count > 1 {
                throw ProblemList(
                    exitCode: error.exitCode,
                    diagnostics: error.diagnostics
                        + PublishError.forgeStopped(
                            forge: publisher.id, done: reports.map(\.publisher),
                            left: publishers[index...].map(\.id)
                        ).diagnostics)
            }
        }
        return reports
    }
}
