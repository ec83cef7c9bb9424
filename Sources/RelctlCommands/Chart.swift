import ArgumentParser
import RelctlBasics
import RelctlDistribution
import RelctlModel
import RelctlProject
import RelctlRelease

struct Chart: RelctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "chart",
        abstract: "Package each [[chart]] as dist/{chart}-{version}.tgz, and push it to its OCI repository.",
        discussion: """
            Run after `relctl package` and `relctl checksum`: reads dist/manifest.json, writes the package \
            laid out as `helm package` does (.helmignore honoured), byte-identical on every run, and lists it \
            in SHA256SUMS. --push sends it as a Helm OCI artifact tagged with the chart version, with the \
            credentials of `docker login`; pushing again keeps the digest. Exit 1 when the registry refuses, \
            2 for a bad chart, tag or missing dist/manifest.json.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "The release tag, e.g. v1.2.0 (checked against the manifests and Chart.yaml first).") var tag: String
    @Option(help: ArgumentHelp("Folder holding manifest.json and the archives (default: dist/).", valueName: "dir"))
    var dist: String?
    @Flag(help: "Push each chart that has a `repository` as a Helm OCI artifact.") var push = false
    @Flag(name: .customLong("dry-run"), help: "With --push: check the registry accepts the credentials, push nothing.")
    var dryRun = false

    func execute(_ context: Context) async throws {
        let config = try ConfigLoader.load(path: global.config, context: context)
        let checked = try ReleaseIdentity.check(tag, config: config, manifests: .compared)
        let report = try await ChannelStep.run(
            name: "chart", checked: checked, config: config, context: context, dist: dist, publish: push,
            dryRun: dryRun)
        if global.json { try emitJSON(report, context) }
    }
}
