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
        let selected = try TargetResolver.select(try TargetResolver.resolveAll(config), globs: targets)
        let output = out.map { context.resolve($0) } ?? config.distDirectory
        let identity = try await ReleaseIdentity.resolve(tag: tag, config: config, context: context, .packaging)
        let artifactList = try await Packager(context: context).package(
            config: config, inputs: identity.packagingInputs, targets: selected, outputDirectory: output,
            binaryRoot: artifacts.map { context.resolve($0) }, jobs: jobs, clean: clean, updateManifest: true)
        if global.json { try emitJSON(artifactList, context) }
    }
}
