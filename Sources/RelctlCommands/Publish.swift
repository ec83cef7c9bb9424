import ArgumentParser
import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlDistribution
import RelctlModel
import RelctlProject
import RelctlRelease

struct Publish: RelctlCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Publish dist/ as the release of TAG on GitHub, GitLab and Gitea/Forgejo: nothing public until every asset is checked.",
        discussion: """
            Assets: every file dist/SHA256SUMS lists (archives, SBOMs, installers), SHA256SUMS, and manifest.json, \
            SHA256SUMS.sig and SHA256SUMS.minisig when present; nothing else in dist/ (files of other tags stay \
            there), and a dist/manifest.json of another tag is refused. The body is dist/RELEASE_NOTES.md. Token from GITHUB_TOKEN or GH_TOKEN, API from \
            GITHUB_API_URL (default https://api.github.com), repository from [publish] github, GITHUB_REPOSITORY or the \
            remote's URL. Safe to run again at any point: it finishes what a failed run left and uploads nothing twice. \
            Exit 0 when published (or already published with the same assets), 1 when an asset differs or the API \
            refuses, 2 for a missing token, file or repository (nothing is sent then). Every forge [publish] names \
            (github, gitlab, gitea, in that order) or --forge NAME; GitLab and Gitea/Forgejo: see \
            docs/publishing-forges.md. With [npm], the npm packages in dist/ go to the npm registry after the forges \
            (token NPM_TOKEN, checked before anything is sent); --registry npm publishes them alone. With [pypi], the wheels go to PyPI after the forges \
            (token PYPI_TOKEN, checked before anything is sent); --registry pypi publishes them alone (docs/registries.md).
            """
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The release tag (e.g. v1.2.0).", valueName: "tag")) var tag: String
    @Option(
        help: ArgumentHelp(
            "Publish to this forge only: github, gitlab or gitea.", valueName: "name"))
    var forge: String?
    @Option(
        help: ArgumentHelp(
            "Publish to this package registry only (npm: the [npm] packages; pypi: the [pypi] wheels), not to the forges.", valueName: "name"))
    var registry: String?
    @Flag(help: "Leave the release as a complete draft instead of publishing it.") var draft = false
    @Flag(help: "Replace same-name assets whose SHA256 differs (with a warning) instead of refusing.") var replace =
        false

    func validate() throws {
        try EnumeratedOption.check(
            forge.map { [$0] } ?? [], option: "--forge <name>", known: PublisherRegistry.knownIDs)
        try EnumeratedOption.check(registry.map { [$0] } ?? [], option: "--registry <name>", known: ["npm", "pypi"])
        if registry != nil, forge != nil {
            throw ValidationError("--registry publishes to a package registry only; leave out --forge")
        }
    }

    func execute(_ context: Context) async throws {
        let config = try ConfigLoader.loadIfPresent(path: global.config, context: context)
        let version = try ReleaseIdentity.check(tag, config: config, manifests: .unread).version
        // The npm token first: a missing one is exit 2 before any forge or registry is sent anything.
        let npmToken = registry == "pypi" ? nil : try config.npm.map { try NpmPublisher.token(environment: context.environment, settings: $0) }
        if registry == "npm" {
            guard let settings = config.npm, let npmToken else {
                throw NpmError.notConfigured(config: config.path)
            }
            let report = try await publishNpm(settings, token: npmToken, version: version, config: config, context: context)
            if global.json { try emitJSON(report, context) }
            return
        }
        if registry == "pypi" {
            guard let settings = config.pypi else {
                throw ProblemList(
                    exitCode: .badInput,
                    diagnostics: [
                        Diagnostic(
                            file: config.path,
                            "--registry pypi publishes the [pypi] wheels; add [pypi] package = \"NAME\"")
                    ])
            }
            let report = try await PyPIPublisher(http: context.http).publishRelease(
                settings, config: config, tag: tag, version: version.description, context: context)
            if global.json { try emitJSON(registryReport(report), context) }
            return
        }
        // `[pypi]` too: its token is checked with the forges', before anything is sent.
        if config.pypi != nil { _ = try PyPIPublisher.token(environment: context.environment) }
        let forges = try ForgeSelection(settings: config.publish, only: forge, http: context.http)
        // As configured: an insteadOf rewrite (a mirror, a credential helper URL) must not hide the repository.
        let git = Git(directory: config.root, context: context)
        let remoteURL = await git.configuredRemoteURL(config.release.remote)
        let dist = ChecksumWriter.defaultFolder(config: config, context: context)
        let distURL = context.resolve(dist)

        var request = PublishRequest(
            tag: tag, version: version, tagFormat: config.project.tagFormat, projectName: config.project.name,
            title: "\(config.project.name) \(tag)", body: "", assets: ReleaseAssetSet(assets: []),
            configuredRepository: config.publish.github, remoteURL: remoteURL, draftOnly: draft, replace: replace
        )
        request.configuredGitLabProject = config.publish.gitlab
        request.configuredGiteaRepository = config.publish.gitea
        request.extensionSettings = config.publish.extensions
        // Credentials and repository first: a missing token must not cost a 1 GiB hash.
        try forges.preflight(request, context: context)
        request.localTagObject =
            await git.localTagExists(tag)
            ? try? git.run(["rev-parse", "refs/tags/\(tag)"]).trimmingCharacters(in: .whitespacesAndNewlines) : nil
        request.assets = try await ReleaseAssetSet.collect(
            dist: distURL, shownDist: dist, tag: tag, tagOnly: config.releasesTagsOnly)
        let notes = distURL.appendingPathComponent(NotesStage.fileName)
        if let body = try? String(contentsOf: notes, encoding: .utf8) {
            request.body = body
        } else {
            context.console.warning(
                "\(dist)/\(NotesStage.fileName) not found; the release body will be empty (write it with `relctl notes --tag \(tag) --output \(dist)/\(NotesStage.fileName)`)"
            )
        }
        var reports = try await forges.publish(request, context: context).map(PublishedReport.forge)
        if let settings = config.npm, let npmToken {
            reports.append(
                .registry(
                    try await publishNpm(settings, token: npmToken, version: version, config: config, context: context)))
        }
        if let settings = config.pypi {
            let report = try await PyPIPublisher(http: context.http).publishRelease(
                settings, config: config, tag: tag, version: version.description, context: context)
            reports.append(.registry(registryReport(report)))
        }
        // One report (one forge, no registry): the object, as before there were several; several
        // (forges, then npm, then PyPI): one report each, in order.
        if global.json {
            if reports.count == 1 { try emitJSON(reports[0], context) } else { try emitJSON(reports, context) }
        }
    }

    /// PyPI's upload report in the shape of the others.
    private func registryReport(_ report: PyPIPublisher.Report) -> RegistryPublishReport {
        RegistryPublishReport(
            publisher: "pypi", repository: report.repository, index: report.index, tag: tag,
            rehearsed: report.rehearsed, uploaded: report.uploaded, unchanged: report.unchanged)
    }

    /// The `[npm]` packages of dist/ to the registry, platform packages first.
    private func publishNpm(
        _ settings: NpmSettings, token: String, version: SemanticVersion, config: RelctlConfig, context: Context
    ) async throws -> RegistryPublishReport {
        let dist = ChecksumWriter.defaultFolder(config: config, context: context)
        let packages = try NpmPublisher.packages(in: context.resolve(dist), shownDist: dist, tag: tag)
        let publisher = NpmPublisher(
            settings: settings, http: RetryingHTTPClient(base: context.http), console: context.console)
        let results = try await publisher.publish(packages, version: version, token: token, dryRun: false)
        // The tarballs' file names, as the forges and PyPI name what they sent.
        let files = zip(packages, results).map { ($0.0.url.lastPathComponent, $0.1.outcome) }
        return RegistryPublishReport(
            publisher: "npm", repository: settings.registry, tag: tag, rehearsed: false,
            uploaded: files.filter { $0.1 == .published }.map(\.0),
            unchanged: files.filter { $0.1 == .alreadyPublished }.map(\.0))
    }
}
