import ArgumentParser
import Foundation
import RelctlBasics
import RelctlModel
import RelctlRelease

/// Shared shape of a subcommand: parse, build the context, run core code, and turn a
/// `RelctlError` into `relctl: error:` lines and the contract's exit code.
protocol RelctlCommand: AsyncParsableCommand {
    var global: GlobalOptions { get }
    /// `--profile` where a command has it; `RELCTL_PROFILE=1` profiles any command.
    var profileRequested: Bool { get }
    func execute(_ context: Context) async throws
}

extension RelctlCommand {
    var profileRequested: Bool { false }

    func run() async throws {
        Interrupts.install()
        let context = global.makeContext()
        WorkProfile.shared.enable(flag: profileRequested)
        // A failure caused by our own Ctrl-C waits for the handler's exit 130 instead of exiting 1.
        defer { Interrupts.parkIfInterrupted() }
        // Asked for explicitly, so printed whatever -q says, after the command's own output.
        defer { if WorkProfile.shared.isEnabled { context.console.stderr(WorkProfile.shared.report() + "\n") } }
        do {
            if let limit = DescriptorLimit.prepare() { throw limit }
            try await execute(context)
            if let failure = context.console.stdoutError {
                throw FileSystemError(path: nil, action: "cannot write to standard output", reason: "\(failure)")
            }
        } catch {
            // ArgumentParser's own errors (usage, --help) keep their meaning and exit 64.
            guard
                let failure = error as? RelctlError
                    ?? ((error is CocoaError || error is POSIXError) ? FileSystemError(error) : nil)
            else { throw error }
            Interrupts.parkIfInterrupted()
            for diagnostic in failure.diagnostics { context.console.error(diagnostic.description) }
            if failure.exitCode == .badInput, let note = global.projectRootNote(context) { context.console.info(note) }
            // A script reading --json output gets a document even when the command failed.
            if global.json, !context.console.wroteStdout {
                let diagnostics =
                    failure.diagnostics.isEmpty ? [Diagnostic("\(failure)")] : failure.diagnostics
                context.console.stdout(
                    ErrorDocument(exitCode: failure.exitCode.rawValue, diagnostics: diagnostics).rendered())
            }
            throw ExitCode(failure.exitCode.rawValue)
        }
    }

    /// Prints a JSON document on stdout.
    func emitJSON(_ value: some Encodable, _ context: Context) throws {
        context.console.stdout(try JSONDocument.render(value, warnings: context.console.diagnostics.warnings))
    }
}

/// What a `--json` command prints on stdout when it fails without a document of its own, so a
/// script reading stdout always gets one JSON document: `{"ok": false, "exitCode": N,
/// "errors": [{"file", "line", "message"}]}` (`file` and `line` only where there is one). Usage
/// errors (exit 64) get the same shape.
struct ErrorDocument: Encodable {
    struct Item: Encodable {
        var file: String?
        var line: Int?
        var message: String
    }

    var ok = false
    var exitCode: Int32
    var errors: [Item]

    init(exitCode: Int32, diagnostics: [Diagnostic]) {
        self.exitCode = exitCode
        errors = diagnostics.map { Item(file: $0.file, line: $0.line, message: $0.message) }
    }

    init(exitCode: Int32, messages: [String]) {
        self.exitCode = exitCode
        errors = messages.map { Item(file: nil, line: nil, message: $0) }
    }

    func rendered() -> String {
        (try? JSONOutput.encode(self)) ?? "{\"ok\": false, \"exitCode\": \(exitCode), \"errors\": []}\n"
    }
}
