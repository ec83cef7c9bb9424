import Foundation
import RelctlBasics
import Synchronization

/// Parsed TOML files and Cargo workspaces kept for the length of one read-only scope, where nothing
/// writes the files read (`relctl init`, `StarterConfig.write`). Reading a workspace's members asks
/// each member's folder what `init` would write there, and each asks for the Cargo workspace it
/// belongs to: without it, every member parsed every member's Cargo.toml again (biome's 105 crates:
/// about 40,000 parses, 100 s of CPU). Outside such a scope (`current` nil) every read parses.
package final class TOMLReadCache: Sendable {
    /// The cache of the scope the task runs in, if any (`withValue`).
    @TaskLocal package static var current: TOMLReadCache?

    private let documents = Mutex<[String: TOMLDocument]>([:])
    private let values = Mutex<[String: any Sendable]>([:])

    package init() {}

    /// A parsed file, by where it is and how it is shown (the document names the file as shown).
    func document(at file: ProjectFile) -> TOMLDocument? {
        documents.withLock { $0[Self.key(file)] }
    }

    func keep(_ document: TOMLDocument, for file: ProjectFile) {
        documents.withLock { $0[Self.key(file)] = document }
    }

    /// Something made from files read in the scope (a Cargo workspace's packages), kept under `key`.
    package func value<Value: Sendable>(_ key: String, as type: Value.Type) -> Value? {
        values.withLock { $0[key] as? Value }
    }

    package func keep(_ value: some Sendable, for key: String) {
        values.withLock { $0[key] = value }
    }

    private static func key(_ file: ProjectFile) -> String { file.location.path + "\u{0}" + file.shown }
}
