import ArgumentParser
import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel
import RelctlProject
import RelctlRelease

struct PackageCommand: RelctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "package",
        abstract: "Write one reproducible archive per target (tar.gz, zip, tar.xz, tar.zst) plus its .sha256.",
        discussion: """
            Archives go to dist/ (or --out) with a NAME.sha256 next to each and dist/manifest.json updated. \
            Entries are sorted, owned by 0:0 and timestamped with SOURCE_DATE_EPOCH or the tagged commit's time. \
            With [npm], [pypi] or [windows] msi = true, the targets' npm packages (and the main package), wheels and MSIs \
            are written beside them, for `relctl checksum` to list (CI's build jobs). \
            Exit 1 on a tag mismatch or an existing archive (pass --clean), 2 for unsafe links, missing binaries or bad config.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "The release tag, e.g. v1.2.0 (checked against the manifests first).") var tag: String
    @Option(
        name: .customLong("target"),
        help: ArgumentHelp("A target triple or glob; repeat for several (default: all).", valueName: "triple|glob"))
    var targets: [String] = []
    @Option(help: ArgumentHelp("Output folder (default: dist/ in the project).", valueName: "dir")) var out: String?
    @Option(
        help: ArgumentHelp("Read prebuilt binaries from here instead of the project's binary-dir.", valueName: "dir"))
    var artifacts: String?
    @Option(
        help:
            "Compression threads in total, shared by the archives (default: number of cores); the archives are the same for any value."
    ) var jobs: Int?
    @Flag(help: "Remove this tag's existing archives for these targets first.") var clean = false

    func validate() throws {
        if let problem = ParallelJobs.problem(jobs) { throw ValidationError(problem) }
    }

    func execute(_ context: Context) async throws {
        let config = try ConfigLoader.load(path: global.config, context: context)
        let all = try TargetResolver.resolveAll(config)
        let selected = try TargetResolver.select(all, globs: targets)
        let output = out.map { context.resolve($0) } ?? config.distDirectory
        let identity = try await ReleaseIdentity.resolve(tag: tag, config: config, context: context, .packaging)
        let artifactList = try await Packager(context: context).package(
            config: config, inputs: identity.packagingInputs, targets: selected, outputDirectory: output,
            binaryRoot: artifacts.map { context.resolve($0) }, jobs: jobs, clean: clean, updateManifest: true)
        try await writePackages(config: config, identity: identity, selected: selected, all: all, into: output, context: context)
        if global.json { try emitJSON(artifactList, context) }
    }

    /// `[npm]`, `[pypi]` and `[windows] msi = true`: these targets' npm packages (and the main
    /// package, the same bytes from every job), wheels and MSIs beside their archives, as the
    /// release writes them: what a CI build job hands over for `relctl checksum` to list.
    private func writePackages(
        config: RelctlConfig, identity: ReleaseIdentity, selected: [Target], all: [Target], into output: URL,
        context: Context
    ) async throws {
        let binaryRoot = artifacts.map { context.resolve($0) }
        if config.npm != nil, selected.contains(where: { NpmPlatform(triple: TargetTriple($0.triple)) != nil }) {
            let remoteURL = await Git(directory: config.root, context: context).configuredRemoteURL(
                config.release.remote)
            let written = try await NpmPackageBuilder(context: context).write(
                config: config, inputs: identity.packagingInputs, targets: selected, remoteURL: remoteURL,
                into: output, binaryRoot: binaryRoot, mainTargets: all)
            for package in written { context.console.info("npm package \(package.name)") }
        }
        if let settings = config.pypi, !PythonWheelBuilder.targets(among: selected).isEmpty {
            _ = try await PythonWheelBuilder(context: context).write(
                settings: settings, config: config, inputs: identity.packagingInputs,
                targets: PythonWheelBuilder.targets(among: selected), into: output, binaryRoot: binaryRoot)
        }
        if config.windows.msi, !MSIBuilder.targets(selected).isEmpty {
            let signer = try OsslsigncodeSigner.configured(
                config.windows, config: config.path, root: config.root, environment: context.environment)
            let installers = try await MSIBuilder(context: context).write(
                config: config, inputs: identity.packagingInputs, targets: selected, into: output,
                binaryRoot: binaryRoot, signer: signer,
                executableSigner: try AuthenticodeSigner.load(config: config, keysRoot: config.root, context: context))
            for installer in installers { context.console.info("msi \(installer.name)") }
        }
    }
}
