import ArgumentParser
import Foundation
import RelctlBasics
import RelctlBuildInfo

/// The shells `relctl completions` writes a script for.
enum CompletionShellChoice: String, ExpressibleByArgument, CaseIterable {
    case bash, zsh, fish

    var shell: CompletionShell {
        switch self {
        case .bash: .bash
        case .zsh: .zsh
        case .fish: .fish
        }
    }
}

struct Completions: RelctlCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the shell completion script for bash, zsh or fish.",
        discussion: """
            Written from relctl's own command tree (every subcommand, option and fixed value). \
            The deb and rpm install them (/usr/share/bash-completion/completions/relctl, \
            /usr/share/zsh/vendor-completions/_relctl, /usr/share/fish/vendor_completions.d/relctl.fish); \
            by hand: `relctl completions bash > ~/.local/share/bash-completion/completions/relctl`.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("bash, zsh or fish.", valueName: "shell")) var shell: CompletionShellChoice

    func execute(_ context: Context) async throws {
        let script = Relctl.completionScript(for: shell.shell)
        if global.json {
            try emitJSON(TextDocument(name: shell.rawValue, text: script), context)
        } else {
            context.console.stdout(script.hasSuffix("\n") ? script : script + "\n")
        }
    }
}

struct Manual: RelctlCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print relctl's manual page (relctl.1, man(7) format).",
        discussion: """
            Written from relctl's own command tree: every command with its usage, text and options. \
            The deb and rpm install it as /usr/share/man/man1/relctl.1.gz; by hand: \
            `relctl manual > relctl.1 && man -l relctl.1`. The page's date is --date, else \
            SOURCE_DATE_EPOCH's day, else the day relctl was built.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("The page's date, YYYY-MM-DD.", valueName: "date")) var date: String?

    func validate() throws {
        if let date, !ManualPageTree.isDay(date) {
            throw ValidationError("--date \(date) is not a day as YYYY-MM-DD (e.g. 2026-11-25)")
        }
    }

    func execute(_ context: Context) async throws {
        let day =
            date ?? context.environment["SOURCE_DATE_EPOCH"].flatMap(Int64.init).map(ManualPageTree.day(epoch:))
            ?? String(String(cString: relctl_build_date()).prefix(10))
        let page = ManualPageEmitter.render(try ManualPageTree.page(date: ManualPageTree.isDay(day) ? day : ""))
        if global.json {
            try emitJSON(TextDocument(name: "relctl.1", text: page), context)
        } else {
            context.console.stdout(page)
        }
    }
}

/// `--json` of `completions` and `manual`: the text under a name.
struct TextDocument: Encodable {
    var ok = true
    var name: String
    var text: String
}

/// relctl's command tree, as ArgumentParser describes it (`--experimental-dump-help`'s JSON),
/// turned into a manual page. The options every command shares (`GlobalOptions`, `--help`) are
/// listed once, under OPTIONS.
enum ManualPageTree {
    private struct Dump: Decodable {
        var command: CommandInfo
    }

    private struct CommandInfo: Decodable {
        var commandName: String
        var abstract: String?
        var discussion: String?
        var shouldDisplay: Bool?
        var subcommands: [CommandInfo]?
        var arguments: [ArgumentInfo]?
    }

    private struct ArgumentInfo: Decodable {
        struct Name: Decodable {
            var kind: String
            var name: String
        }

        var kind: String
        var shouldDisplay: Bool
        var isOptional: Bool
        var isRepeating: Bool
        var names: [Name]?
        var valueName: String?
        var defaultValue: String?
        var abstract: String?
        var discussion: String?
    }

    /// `YYYY-MM-DD`, digits where digits go.
    static func isDay(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.map(\.count) == [4, 2, 2] && parts.allSatisfy { $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    /// The UTC day of a Unix time, `YYYY-MM-DD`.
    static func day(epoch: Int64) -> String {
        var formatter = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!)
        formatter = formatter.year().month().day().dateSeparator(.dash)
        return Date(timeIntervalSince1970: TimeInterval(epoch)).formatted(formatter)
    }

    static func page(date: String) throws -> ManualPageEmitter.Page {
        let dump = try JSONDecoder().decode(Dump.self, from: Data(Relctl._dumpHelp().utf8))
        var leaves: [(path: String, info: CommandInfo)] = []
        var all: [(path: String, info: CommandInfo)] = []
        func walk(_ info: CommandInfo, path: String) {
            for child in info.subcommands ?? [] where child.shouldDisplay ?? true && child.commandName != "help" {
                let childPath = path + " " + child.commandName
                all.append((childPath, child))
                if (child.subcommands ?? []).isEmpty { leaves.append((childPath, child)) }
                walk(child, path: childPath)
            }
        }
        let root = dump.command
        walk(root, path: root.commandName)
        // The options every leaf command takes are relctl's global options.
        var shared: Set<String>?
        for leaf in leaves {
            let names = Set(options(of: leaf.info).map(\.synopsis))
            shared = shared.map { $0.intersection(names) } ?? names
        }
        let common = shared ?? []
        var global: [ManualPageEmitter.Option] = []
        if let first = leaves.first {
            global = options(of: first.info).filter { common.contains($0.synopsis) }
        }
        let rootOptions = options(of: root).filter { !common.contains($0.synopsis) }
        let commands = all.map { entry in
            ManualPageEmitter.Command(
                path: entry.path, abstract: entry.info.abstract ?? "", discussion: entry.info.discussion ?? "",
                usage: usage(path: entry.path, entry.info),
                options: options(of: entry.info).filter { !common.contains($0.synopsis) })
        }
        return ManualPageEmitter.Page(
            name: root.commandName, version: "", date: date,
            root: ManualPageEmitter.Command(
                path: root.commandName, abstract: root.abstract ?? "",
                discussion: [root.abstract ?? "", root.discussion ?? ""].filter { !$0.isEmpty }.joined(separator: "\n\n"),
                usage: "\(root.commandName) <command> [<options>]", options: global + rootOptions),
            commands: commands,
            sections: [
                ManualPageEmitter.Section(
                    title: "Exit status",
                    paragraphs: [
                        "0: success.",
                        "1: the thing checked is wrong or a step failed (a tag mismatch, a checksum mismatch, a failed build).",
                        "2: bad input: an unreadable or invalid config, bad tag syntax, a missing file, an unknown id.",
                        "64: command-line usage (an unknown option, a missing argument, a value outside an option's list).",
                    ]),
                ManualPageEmitter.Section(
                    title: "See also",
                    paragraphs: ["The guides in docs/ of https://github.com/relctl/relctl and `relctl COMMAND --help`."]),
            ])
    }

    private static func usage(path: String, _ info: CommandInfo) -> String {
        // A usage the command writes itself (linux-package's two forms) is what --help shows.
        if let written = writtenUsages[path] { return written }
        if let children = info.subcommands, !children.isEmpty { return path + " <command> [<options>]" }
        var words = [path]
        if options(of: info).contains(where: { !$0.synopsis.hasPrefix("<") }) { words.append("[<options>]") }
        for argument in info.arguments ?? [] where argument.kind == "positional" && argument.shouldDisplay {
            var word = "<" + (argument.valueName ?? "value") + ">"
            if argument.isRepeating { word += " ..." }
            words.append(argument.isOptional ? "[" + word + "]" : word)
        }
        return words.joined(separator: " ")
    }

    /// `CommandConfiguration.usage` by command path (`relctl linux-package`): the help dump does
    /// not carry it, so the command types are walked as `--help` reads them.
    private static let writtenUsages: [String: String] = {
        var found: [String: String] = [:]
        func walk(_ command: any ParsableCommand.Type, path: String) {
            for child in command.configuration.subcommands {
                let childPath = path + " " + child._commandName
                if let usage = child.configuration.usage, !usage.isEmpty { found[childPath] = usage }
                walk(child, path: childPath)
            }
        }
        walk(Relctl.self, path: Relctl._commandName)
        return found
    }()

    private static func options(of info: CommandInfo) -> [ManualPageEmitter.Option] {
        (info.arguments ?? []).filter(\.shouldDisplay).map { argument in
            let synopsis: String
            if argument.kind == "positional" {
                synopsis = "<" + (argument.valueName ?? "value") + ">"
            } else {
                let names = (argument.names ?? []).map { ($0.kind == "short" ? "-" : "--") + $0.name }
                    .joined(separator: ", ")
                synopsis = argument.kind == "option" ? names + " <" + (argument.valueName ?? "value") + ">" : names
            }
            var text = [argument.abstract ?? "", argument.discussion ?? ""].filter { !$0.isEmpty }.joined(
                separator: "\n\n")
            if argument.kind == "option", let value = argument.defaultValue, !value.isEmpty {
                text += (text.isEmpty ? "" : " ") + "(default: \(value))"
            }
            return ManualPageEmitter.Option(synopsis: synopsis, text: text)
        }
    }
}
