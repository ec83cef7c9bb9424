import ArgumentParser
import RelctlArtifacts
import RelctlBasics
import RelctlProject
import RelctlRelease

struct Installer: RelctlCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Write dist/{project}-installer.sh (POSIX sh) and dist/{project}-installer.ps1 from dist/manifest.json.",
        discussion: """
            The scripts pick the archive for the machine, download it and SHA256SUMS from the GitHub release \
            (or $INSTALLER_BASE_URL), verify the SHA-256 and, where minisign is installed and [sign] \
            minisign-public-key is set, the signature; only then install the binaries into --to DIR \
            (default ~/.local/bin). Exit 2 when dist/manifest.json is missing or lists no archives.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("Folder holding manifest.json and the archives (default: dist/).", valueName: "dir"))
    var dist: String?
    @Option(
        help: ArgumentHelp(
            "GitHub OWNER/REPO the release is published to (default: $GITHUB_REPOSITORY, else the remote).",
            valueName: "owner/repo")) var repository: String?

    func execute(_ context: Context) async throws {
        let config = try ConfigLoader.loadIfPresent(path: global.config, context: context)
        let folder = dist ?? ChecksumWriter.defaultFolder(config: config, context: context)
        let report = try await InstallerWriter.write(
            dist: folder, config: config, repository: repository, context: context)
        if global.json { try emitJSON(report, context) }
        for file in report.files { context.console.info("wrote \(file)") }
        context.console.detail("machines: \(report.machines.joined(separator: ", "))")
    }
}
