import RelctlBasics
import RelctlDistribution
import RelctlModel

/// What a program built on relctl's libraries adds to the built-ins: its own `relctl`, compiled
/// with extra manifest readers, publishers and channels, registered before the first command runs
/// (build-time registration: nothing is loaded at run time). Examples/relctl-gradle is such a
/// program, and a test builds and runs it.
///
/// ```swift
/// var extensions = RelctlExtensions()
/// extensions.addManifestReader(GradlePropertiesReader(), kind: "gradle", fileNames: ["gradle.properties"])
/// extensions.addPublisher(id: "mirror") { _ in MirrorPublisher() }
/// extensions.addChannel(id: "update-feed") { settings in try UpdateFeedChannel(settings: settings) }
/// await RelctlCLI.main(extensions: extensions)
/// ```
public struct RelctlExtensions: Sendable {
    package struct ManifestReaderEntry: Sendable {
        package var reader: any ManifestReader
        package var kind: String
        package var fileNames: [String]
    }

    package struct PublisherEntry: Sendable {
        package var id: String
        package var factory: PublisherRegistry.Factory
    }

    package struct ChannelEntry: Sendable {
        package var id: String
        package var factory: ChannelRegistry.ExtensionFactory
    }

    package var manifestReaders: [ManifestReaderEntry] = []
    package var publishers: [PublisherEntry] = []
    package var channels: [ChannelEntry] = []

    public init() {}

    /// A manifest reader for `[[version]] kind = "KIND"`; `fileNames` (such as `gradle.properties`)
    /// imply the kind when a `[[version]]` entry gives none. A kind or name a built-in already has
    /// is refused when the extensions are installed.
    public mutating func addManifestReader(_ reader: any ManifestReader, kind: String, fileNames: [String] = []) {
        manifestReaders.append(ManifestReaderEntry(reader: reader, kind: kind, fileNames: fileNames))
    }

    /// A publisher `relctl publish` and `release --publish` send the release to when
    /// relctl.toml's `[publish]` has the key `ID` (its value, such as a folder or a server, is the
    /// publisher's to read from `PublishRequest.extensionSettings`), or when `--forge ID` names
    /// it. Built-in forges go first, then added publishers in the order of their ids. `ID` is
    /// lowercase letters, digits and dashes; an id a built-in has is refused when the extensions
    /// are installed.
    public mutating func addPublisher(id: String, factory: @escaping PublisherRegistry.Factory) {
        publishers.append(PublisherEntry(id: id, factory: factory))
    }

    /// A channel (a place users install from) that `[[channel]] name = "ID"` configures: the
    /// factory gets that table's other keys as text, and throws a `RelctlError` for a bad one.
    /// `relctl channel ID` runs it alone; `relctl release` writes its files with the built-in
    /// channels' (after them, in `[[channel]]` order), checks them the same way (plain paths
    /// inside dist, assets listed in SHA256SUMS) and, when it says `publishedBy`, publishes it
    /// with `--push` or `--publish`. The name is checked before PATH is searched for a
    /// `relctl-channel-ID` plugin; a built-in's name is refused when the extensions are installed.
    public mutating func addChannel(id: String, factory: @escaping ChannelRegistry.ExtensionFactory) {
        channels.append(ChannelEntry(id: id, factory: factory))
    }

    /// Registers everything, once, before a command runs.
    public func install() throws(ExtensionError) {
        for entry in manifestReaders {
            try ManifestReaders.add(entry.reader, kind: entry.kind, fileNames: entry.fileNames)
        }
        for entry in publishers {
            try PublisherRegistry.add(id: entry.id, factory: entry.factory)
        }
        for entry in channels {
            try ChannelRegistry.add(id: entry.id, factory: entry.factory)
        }
    }
}
