import Foundation
import RelctlBasics
import RelctlModel
import Synchronization

/// Channels keyed by id. The built-ins register here, each as a factory giving the instances the
/// config asks for (none when it is not configured); `[[channel]]` names are, in this order, a
/// channel a program built on relctl's libraries added (`RelctlExtensions.addChannel`), then a
/// plugin run as its `command` or as `relctl-channel-NAME` found on PATH. An unknown id lists the
/// known ones.
public enum ChannelRegistry {
    /// Makes an added channel from its `[[channel]]` table's other keys (as text).
    public typealias ExtensionFactory = @Sendable (_ settings: [String: String]) throws -> any Channel

    /// The channels a program built on the libraries added, by name.
    private static let added = Mutex<[String: ExtensionFactory]>([:])

    /// Adds a channel; a name a built-in (or an earlier extension) has, or one that is not a
    /// valid channel name, is refused.
    package static func add(id: String, factory: @escaping ExtensionFactory) throws(ExtensionError) {
        guard isValidName(id) else { throw ExtensionError.badName(what: "channel", name: id) }
        try added.withLock { added throws(ExtensionError) in
            guard factories[id] == nil, added[id] == nil else {
                throw ExtensionError.duplicate(what: "channel", name: id)
            }
            added[id] = factory
        }
    }

    /// The names extensions added, sorted.
    package static var addedIDs: [String] { added.withLock { $0.keys.sorted() } }

    private static func addedChannel(_ plugin: ChannelSettings.Plugin) throws -> (any Channel)? {
        guard let factory = added.withLock({ $0[plugin.name] }) else { return nil }
        return try factory(plugin.settings)
    }

    package typealias Factory = @Sendable (RelctlConfig) -> [any Channel]

    package static let factories: [String: Factory] = [
        HelmChannel.id: { config in config.channels.charts.map { HelmChannel(chart: $0) } },
        NixChannel.id: { config in config.channels.nix ? [NixChannel()] : [] },
        HomebrewChannel.id: { config in config.channels.homebrew.map { [HomebrewChannel(settings: $0)] } ?? [] },
        ScoopChannel.id: { config in config.channels.scoop.map { [ScoopChannel(settings: $0)] } ?? [] },
        AurChannel.id: { config in config.channels.aur.map { [AurChannel(settings: $0)] } ?? [] },
        WingetChannel.id: { config in
            config.channels.winget.map { [WingetChannel(identifier: $0.identifier, settings: $0.repository)] } ?? []
        },
    ]

    /// The order channels run in: built-ins first (fixed), then plugins in config order.
    package static let builtInOrder = [
        HelmChannel.id, NixChannel.id, HomebrewChannel.id, ScoopChannel.id, AurChannel.id, WingetChannel.id,
    ]

    package static let pluginPrefix = "relctl-channel-"

    /// A plugin name: it becomes part of an executable's name.
    package static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64 && name.first != "-"
            && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// Every configured channel, built-ins first. An unusable plugin (no command, nothing on PATH)
    /// is an error naming the known channels.
    package static func configured(_ config: RelctlConfig, environment: [String: String]) throws -> [any Channel] {
        var channels = builtInOrder.flatMap { factories[$0]!(config) }
        var problems: [any RelctlError] = []
        for plugin in config.channels.plugins {
            do {
                channels.append(
                    try addedChannel(plugin) ?? pluginChannel(plugin, config: config, environment: environment))
            } catch let error as RelctlError {
                problems.append(error)
            }
        }
        if !problems.isEmpty { throw ProblemList(problems) }
        return channels
    }

    /// The channels `relctl channel NAME` (or `relctl chart`) runs: the configured built-in of that
    /// id, a `[[channel]]` of that name, or a `relctl-channel-NAME` plugin on PATH.
    package static func named(
        _ name: String, config: RelctlConfig, environment: [String: String]
    ) throws -> [any Channel] {
        if let factory = factories[name] {
            let channels = factory(config)
            guard !channels.isEmpty else {
                throw ChannelError.notConfigured(name: name, config: config.path, how: howToConfigure(name))
            }
            return channels
        }
        if let plugin = config.channels.plugins.first(where: { $0.name == name }) {
            return [try addedChannel(plugin) ?? pluginChannel(plugin, config: config, environment: environment)]
        }
        if let channel = try addedChannel(ChannelSettings.Plugin(name: name, command: nil, line: nil)) {
            return [channel]
        }
        if isValidName(name), let executable = findOnPath(pluginPrefix + name, environment: environment) {
            return [PluginChannel(name: name, command: [executable])]
        }
        throw ChannelError.unknownChannel(name: name, known: knownIDs(config: config, environment: environment))
    }

    /// Built-in ids, configured plugin names and plugins found on PATH, sorted.
    package static func knownIDs(config: RelctlConfig, environment: [String: String]) -> [String] {
        var ids = Set(factories.keys).union(addedIDs)
        for plugin in config.channels.plugins where plugin.command != nil { ids.insert(plugin.name) }
        ids.formUnion(pluginsOnPath(environment: environment))
        return ids.sorted()
    }

    /// Problems `relctl check` reports: plugins that cannot run, names taken by built-ins.
    package static func problems(_ config: RelctlConfig, environment: [String: String]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for plugin in config.channels.plugins {
            if factories[plugin.name] != nil {
                diagnostics.append(
                    Diagnostic(
                        file: config.path, line: plugin.line,
                        "[[channel]] `\(plugin.name)` has the name of a built-in channel; configure that one with its own table, or rename the plugin"
                    ))
            } else if plugin.command == nil, !addedIDs.contains(plugin.name),
                findOnPath(pluginPrefix + plugin.name, environment: environment) == nil
            {
                let known = knownIDs(config: config, environment: environment)
                diagnostics.append(
                    Diagnostic(
                        file: config.path, line: plugin.line,
                        "unknown channel `\(plugin.name)`\(Suggestion.hint(for: plugin.name, in: known)): no `\(pluginPrefix)\(plugin.name)` on PATH and no `command`; known channels: \(known.joined(separator: ", "))"
                    ))
            } else if let program = plugin.command?.first, !commandExists(program, root: config.root, environment: environment) {
                // What the channel stage would find at run time (exit 127), said before any build.
                diagnostics.append(
                    Diagnostic(
                        file: config.path, line: plugin.line,
                        program.contains("/")
                            ? "[[channel]] `\(plugin.name)`: its command `\(program)` is not an executable file in the project; fix the path or make it executable (chmod +x)"
                            : "[[channel]] `\(plugin.name)`: its command `\(program)` is not on PATH; install it or give its path"
                    ))
            }
        }
        return diagnostics
    }

    /// A `command`'s program as the channel stage would start it: a path with a `/` relative to
    /// the project (an executable file), a bare name on PATH.
    private static func commandExists(_ program: String, root: URL, environment: [String: String]) -> Bool {
        if program.contains("/") {
            return FileSystem.isExecutable(RelctlConfig.resolve(program, root: root))
        }
        return findOnPath(program, environment: environment) != nil
    }

    private static func pluginChannel(
        _ plugin: ChannelSettings.Plugin, config: RelctlConfig, environment: [String: String]
    ) throws -> PluginChannel {
        if let command = plugin.command {
            // A relative program path (`channels/announce.py`) is the project's, not the working folder's.
            var argv = command
            if argv[0].contains("/") { argv[0] = RelctlConfig.resolve(argv[0], root: config.root).path }
            return PluginChannel(name: plugin.name, command: argv)
        }
        guard let executable = findOnPath(pluginPrefix + plugin.name, environment: environment) else {
            throw ChannelError.unknownChannel(
                name: plugin.name, known: knownIDs(config: config, environment: environment))
        }
        return PluginChannel(name: plugin.name, command: [executable])
    }

    private static func howToConfigure(_ id: String) -> String {
        switch id {
        case HelmChannel.id: return "add a [[chart]] table with `path` (the folder holding Chart.yaml)"
        case NixChannel.id: return "add [nix] with `enabled = true`"
        case HomebrewChannel.id: return "add [homebrew] with `tap = \"OWNER/homebrew-tap\"`"
        case WingetChannel.id:
            return "add [winget] with `identifier = \"Publisher.Package\"` and `repository = \"OWNER/winget-pkgs\"`"
        case AurChannel.id: return "add [aur] with `repository = \"ssh://aur@aur.archlinux.org/NAME-bin.git\"`"
        default: return "add [scoop] with `bucket = \"OWNER/scoop-bucket\"`"
        }
    }

    package static func findOnPath(_ name: String, environment: [String: String]) -> String? {
        ProcessRunner.firstExecutable(name, onPath: environment["PATH"])?.path
    }

    package static func pluginsOnPath(environment: [String: String]) -> [String] {
        var names: Set<String> = []
        for folder in (environment["PATH"] ?? "").split(separator: ":") where folder.hasPrefix("/") {
            for entry in (try? FileSystem.names(atPath: String(folder))) ?? [] where entry.hasPrefix(pluginPrefix) {
                let name = String(entry.dropFirst(pluginPrefix.count))
                if isValidName(name), findOnPath(entry, environment: environment) != nil { names.insert(name) }
            }
        }
        return names.sorted()
    }
}
