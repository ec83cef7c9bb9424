import Crypto
import Foundation
import RelctlBasics

/// An APT repository in the Debian repository format: `pool/main/P/PACKAGE/*.deb`,
/// `dists/SUITE/main/binary-ARCH/Packages{,.gz}` and `dists/SUITE/{Release,InRelease,Release.gpg}`,
/// with the keyring users name in `signed-by` beside it. Built from this release's .debs added to
/// the previous repository's entries (an older version is never dropped; a file of the same
/// name with other bytes is refused), so re-running for the same tag changes nothing.
package struct AptRepository {
    package var suite: String
    package var origin: String
    /// The Release file's `Date`: the release's time, never the wall clock.
    package var epoch: Int
    package var key: OpenPGPSecretKey

    /// The keyring's file name at the repository's root.
    package static func keyringName(project: String) -> String { "\(project)-archive-keyring.gpg" }

    package init(suite: String, origin: String, epoch: Int, key: OpenPGPSecretKey) {
        self.suite = suite
        self.origin = origin
        self.epoch = epoch
        self.key = key
    }

    private struct Entry {
        var stanza: String
        var architecture: String
        /// Where the .deb is read from (this release's dist/, or the previous repository).
        var source: URL
    }

    /// Writes the repository into `output` (replaced whole, atomically at the end) and returns
    /// the number of packages it lists.
    @discardableResult
    package func write(debs: [URL], previous: URL?, into output: URL) throws -> Int {
        var entries: [String: Entry] = [:]
        if let previous { try readPrevious(previous, into: &entries) }
        for deb in debs {
            let control = try DebControlReader.control(of: deb)
            guard let name = RepositoryText.field("Package", in: control),
                let architecture = RepositoryText.field("Architecture", in: control), !name.isEmpty,
                !name.contains("/"), !architecture.contains("/")
            else {
                throw RepositoryError.badInput(
                    path: deb.path, reason: "the .deb's control file lacks a valid Package or Architecture")
            }
            let filename = "pool/main/\(name.prefix(1))/\(name)/\(deb.lastPathComponent)"
            let sha256 = try FileHasher.sha256(of: deb)
            let size = FileSystem.size(of: deb) ?? 0
            if let existing = entries[filename] {
                guard RepositoryText.field("SHA256", in: existing.stanza) == sha256 else {
                    throw RepositoryError.mismatch(
                        path: deb.path,
                        reason:
                            "the previous repository already holds \(filename) with other bytes; a published package is never replaced: release a new version"
                    )
                }
                continue
            }
            let stanza = try RepositoryText.packagesStanza(
                control: control, filename: filename, size: size, sha256: sha256)
            entries[filename] = Entry(stanza: stanza, architecture: architecture, source: deb)
        }
        guard !entries.isEmpty else {
            throw RepositoryError.badInput(
                path: output.path,
                reason: "no .deb to publish: run `relctl linux-package --tag TAG` first ([[package]] format = \"deb\")")
        }
        // Built whole beside the old repository, which it replaces in one step: a write fault
        // leaves the old one as it was and nothing half-written in dist/.
        try AtomicFile.writeFolder(output) { staging in
            for filename in entries.keys.sorted() {
                let destination = staging.appendingPathComponent(filename)
                try FileSystem.createDirectory(destination.deletingLastPathComponent())
                try FileSystem.copy(entries[filename]!.source, to: destination)
            }
            var architectures = Set(entries.values.map(\.architecture)).subtracting(["all"]).sorted()
            if architectures.isEmpty { architectures = ["amd64"] }
            var indexes: [(path: String, size: Int, sha256: String)] = []
            let dists = staging.appendingPathComponent("dists/\(suite)")
            for architecture in architectures {
                let stanzas = entries.keys.sorted().compactMap { filename -> String? in
                    let entry = entries[filename]!
                    return entry.architecture == architecture || entry.architecture == "all" ? entry.stanza : nil
                }
                let packages = Data(RepositoryText.packagesFile(stanzas).utf8)
                let folder = "main/binary-\(architecture)"
                try FileSystem.createDirectory(dists.appendingPathComponent(folder))
                let gzipped = try Gzip.compress(packages, destination: "\(folder)/Packages.gz")
                for (name, data) in [("Packages", packages), ("Packages.gz", gzipped)] {
                    try AtomicFile.write(data, to: dists.appendingPathComponent("\(folder)/\(name)"))
                    indexes.append(
                        (path: "\(folder)/\(name)", size: data.count, sha256: FileHasher.hex(SHA256.hash(data: data))))
                }
            }
            let release = try RepositoryText.releaseFile(
                fields: [
                    ("Origin", origin), ("Label", origin), ("Suite", suite), ("Codename", suite),
                    ("Date", RepositoryText.releaseDate(epoch)),
                    ("Architectures", architectures.joined(separator: " ")),
                    ("Components", "main"), ("Description", "\(origin) packages, signed by \(key.fingerprintText)"),
                ],
                indexes: indexes)
            let time = UInt32(clamping: epoch)
            try AtomicFile.write(release, to: dists.appendingPathComponent("Release"))
            try AtomicFile.write(
                try key.clearsigned(release, time: time), to: dists.appendingPathComponent("InRelease"))
            try AtomicFile.write(
                try key.detachedSignature(of: Array(release.utf8), time: time),
                to: dists.appendingPathComponent("Release.gpg"))
            try AtomicFile.write(
                Data(key.publicKeyring), to: staging.appendingPathComponent(Self.keyringName(project: origin)))
            try AtomicFile.write(
                key.armoredPublicKey, to: staging.appendingPathComponent("\(origin)-archive-keyring.asc"))
        }
        return entries.count
    }

    /// The previous repository's entries: every `Packages` index of the suite, the files they name
    /// checked against their SHA-256 as they are copied later.
    private func readPrevious(_ root: URL, into entries: inout [String: Entry]) throws {
        let dists = root.appendingPathComponent("dists/\(suite)")
        let release = dists.appendingPathComponent("Release")
        guard FileSystem.exists(release) else {
            throw RepositoryError.badInput(
                path: release.path,
                reason: "`[repository] previous` has no apt suite `\(suite)` here (expected dists/\(suite)/Release)")
        }
        let main = dists.appendingPathComponent("main")
        for folder in try FileSystem.names(in: main).sorted() where folder.hasPrefix("binary-") {
            let index = main.appendingPathComponent("\(folder)/Packages")
            guard let data = FileSystem.contents(of: index), let text = String(data: data, encoding: .utf8) else {
                throw RepositoryError.badInput(
                    path: index.path, reason: "the previous repository's Packages index cannot be read")
            }
            for stanza in RepositoryText.stanzas(text) {
                guard let filename = RepositoryText.field("Filename", in: stanza),
                    let architecture = RepositoryText.field("Architecture", in: stanza),
                    let sha256 = RepositoryText.field("SHA256", in: stanza),
                    !filename.hasPrefix("/"), !filename.split(separator: "/").contains("..")
                else {
                    throw RepositoryError.badInput(
                        path: index.path,
                        reason:
                            "a stanza lacks Filename, Architecture or SHA256, or names a path outside the repository")
                }
                if entries[filename] != nil { continue }
                let file = root.appendingPathComponent(filename)
                guard FileSystem.kind(of: file) == .file, try FileHasher.sha256(of: file) == sha256 else {
                    throw RepositoryError.mismatch(
                        path: file.path,
                        reason:
                            "the previous repository lists \(filename) but the file is missing or its SHA-256 differs")
                }
                entries[filename] = Entry(stanza: stanza, architecture: architecture, source: file)
            }
        }
    }
}
