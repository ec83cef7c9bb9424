import ArgumentParser
import Foundation
import RelctlBasics
import RelctlBuildInfo
import RelctlCore
import RelctlRelease

/// The `relctl` command line, as a library: the `relctl` executable is one call to `main`, and a
/// program that adds its own extensions (see `RelctlExtensions`) is another.
public enum RelctlCLI {
    /// Parses the arguments and runs the command with the built-in parts only. (Not a default
    /// argument: that would build `RelctlExtensions` in the caller's module, which an incremental
    /// build does not recompile when the struct's layout changes.)
    public static func main() async {
        await main(extensions: RelctlExtensions())
    }

    /// Installs `extensions`, then parses the arguments and runs the command, exiting with its code.
    public static func main(extensions: RelctlExtensions) async {
        // First: a write past `ulimit -f` then fails with EFBIG instead of killing relctl silently.
        WriteFaultSignals.install()
        // Before the first large block: the walk of a big tree, or a long log, comes first.
        MemoryPolicy.apply()
        do {
            try extensions.install()
        } catch {
            for diagnostic in error.diagnostics {
                FileHandle.standardError.write(Data("relctl: error: \(diagnostic.description)\n".utf8))
            }
            exit(error.exitCode.rawValue)
        }
        await Relctl.main()
    }
}

struct Relctl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relctl",
        abstract: "Check, build, package, checksum, describe and tag a release.",
        discussion: "Run `relctl release vX.Y.Z --dry-run` first; see README.md for the CI flow.",
        version: versionText,
        subcommands: [
            Init.self, Check.self, ValidateTag.self,
            Matrix.self, Build.self, PackageCommand.self, LinuxPackage.self, Repository.self, Image.self,
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
