import ArgumentParser
import Foundation
import RelctlBasics
import RelctlModel
import RelctlRelease

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Path to the config file (default ./relctl.toml). The folder holding it is the project root: paths in it, dist/ and git run there.",
            valueName: "path"))
    var config: String?

    @Flag(name: .long, help: "Print one JSON document on stdout (human text still goes to stderr).")
    var json = false

    @Option(name: .long, help: "Colour in human output: auto, always or never (NO_COLOR is honoured).")
    var color: ColorChoice = .auto

    @Flag(name: [.customShort("q"), .long], help: "Print only warnings and errors (no progress or summaries).")
    var quiet = false

    @Flag(name: [.customShort("v"), .long], help: "Print more detail.")
    var verbose = false

    /// When `--config` lives in another folder, that folder is the project root: said after a
    /// bad-input error, since a path that "does not exist" is then often relative to the wrong place.
    func projectRootNote(_ context: Context) -> String? {
        guard let config else { return nil }
        let folder = context.resolve(config).deletingLastPathComponent().standardizedFileURL
        guard folder.path != context.workingDirectory.standardizedFileURL.path else { return nil }
        return
            "relctl: note: --config \(config) makes \(folder.path) the project root; paths in it are relative to that folder"
    }

    /// The real context for this invocation: cwd, environment, stdout/stderr.
    func makeContext() -> Context {
        let environment = ProcessInfo.processInfo.environment
        let useColor: Bool
        switch color {
        case .always: useColor = true
        case .never: useColor = false
        case .auto: useColor = environment["NO_COLOR"].map(\.isEmpty) ?? true && isatty(STDERR_FILENO) == 1
        }
        let verbosity: Verbosity = quiet ? .quiet : verbose ? .verbose : .normal
        return Context(
            workingDirectory: FileSystem.currentDirectory,
            environment: environment,
            console: Console.standard(verbosity: verbosity, color: useColor)
        )
    }
}

enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

/// An option whose value comes from a fixed list (an algorithm, a registry's ids): a value outside
/// it is a usage error, exit 64, like ArgumentParser's own enum options (`--color`, `matrix
/// --format`), whether the list is a Swift enum or a registry extensions may add to. The message
/// lists the valid values.
enum EnumeratedOption {
    static func check(
        _ values: [String], option: String, known: [String], normalise: (String) -> String = { $0 }
    ) throws {
        for value in values where !known.contains(normalise(value)) {
            throw ValidationError(message(value: value, option: option, known: known))
        }
    }

    /// ArgumentParser's own text for a value outside an enum's cases, word for word, so a script
    /// reads one text whichever kind of list the option has: "The value 'x' is invalid for
    /// '--format <id>'. Please provide one of 'a', 'b' or 'c'." (a bulleted list from six values).
    static func message(value: String, option: String, known: [String]) -> String {
        let head = "The value '\(value)' is invalid for '\(option)'"
        guard !known.isEmpty else { return head }
        if known.count < 6 {
            let quoted = known.map { "'\($0)'" }
            let list =
                quoted.count <= 2
                ? quoted.joined(separator: " and ")
                : quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1]
            return head + ". Please provide one of \(list)."
        }
        return head + ". Please provide one of the following:\n" + known.map { "  - \($0)" }.joined(separator: "\n")
    }
}
