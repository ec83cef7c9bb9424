import ArgumentParser
import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlBuildInfo
import RelctlProject
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
            ProcessEnd.terminate(error.exitCode.rawValue)
        }
        await Relctl.run(Array(CommandLine.arguments.dropFirst()))
    }
}

extension Relctl {
    /// ArgumentParser's `main`, with one error format for every failure: `relctl: error: …` on
    /// stderr (a usage error keeps its `Usage:` lines after it), and with `--json` a JSON error
    /// document on stdout. Help and `--version` print as ArgumentParser prints them.
    static func run(_ arguments: [String]) async -> Never {
        do {
            var command = try await asyncParseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            ProcessEnd.terminate(0)
        } catch {
            let code = exitCode(for: error)
            // relctl's own errors, printed already: `ExitCode` carries the code.
            if let exit = error as? ExitCode { ProcessEnd.terminate(exit.rawValue) }
            // Help and --version print as ArgumentParser prints them.
            if code == .success { exit(withError: error) }
            let full = fullMessage(for: error)
            let text = full.hasPrefix("Error: ") ? String(full.dropFirst("Error: ".count)) : full
            FileHandle.standardError.write(Data("relctl: error: \(text)\n".utf8))
            if wantsJSON(arguments) {
                let document = ErrorDocument(exitCode: code.rawValue, messages: [Self.message(for: error)])
                FileHandle.standardOutput.write(Data(document.rendered().utf8))
            }
            // Never `exit(3)`: see `ProcessEnd` (a task still loading the trust store crashed it).
            ProcessEnd.terminate(code.rawValue)
        }
    }

    /// `--json` among the options (not after `--`, where it would be an argument).
    static func wantsJSON(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains("--json")
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
            Notes.self, Bump.self, Plan.self,
            CI.self,
            Release.self, ReleasePR.self, Publish.self, Reproduce.self, Train.self,
            Completions.self, Manual.self,
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
