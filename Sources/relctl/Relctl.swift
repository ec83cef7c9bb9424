import ArgumentParser
import RelctlBuildInfo
import RelctlCore

@main
struct Relctl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relctl",
        abstract: "Check, build, package, checksum, describe and tag a release.",
        discussion: "Run `relctl release vX.Y.Z --dry-run` first; see README.md for the CI flow.",
        version: versionText,
        subcommands: [
            Init.self, Check.self, ValidateTag.self,
            Matrix.self, Build.self, PackageCommand.self, LinuxPackage.self, Image.self,
            Checksum.self, Verify.self, Sign.self, Installer.self, Chart.self, ChannelCommand.self,
            Notes.self, Bump.self,
            CI.self,
            Release.self, Publish.self, Reproduce.self, Train.self,
        ]
    )

    static var versionText: String {
        let commit = String(cString: relctl_build_commit())
        let date = String(cString: relctl_build_date())
        return """
            relctl \(RelctlVersion.version)
            commit: \(commit.isEmpty ? "unknown (built without `make build`)" : commit)
            built: \(date.isEmpty ? "unknown" : date)
            """
    }
}
