import Crypto
import Foundation
import RelctlBasics

/// A DNF (yum) repository as createrepo lays it out: the rpms under `Packages/`, and
/// `repodata/repomd.xml` (signed: `repomd.xml.asc`) naming gzip-compressed primary, filelists and
/// other indexes by their SHA-256. This release's rpms join the previous repository's (an older
/// version is never dropped; a file of the same name with other bytes is refused).
package struct DnfRepository {
    package var origin: String
    package var epoch: Int
    package var key: OpenPGPSecretKey

    package init(origin: String, epoch: Int, key: OpenPGPSecretKey) {
        self.origin = origin
        self.epoch = epoch
        self.key = key
    }

    /// The armored repository key's file name at the repository's root (`gpgkey=`).
    package static func keyName(project: String) -> String { "RPM-GPG-KEY-\(project)" }

    @discardableResult
    package func write(rpms: [URL], previous: URL?, into output: URL, extraKeys: [String: String] = [:]) throws -> Int {
        var sources: [String: URL] = [:]
        if let previous {
            let folder = previous.appendingPathComponent("Packages")
            guard FileSystem.exists(previous.appendingPathComponent("repodata/repomd.xml")) else {
                throw RepositoryError.badInput(
                    path: previous.path, reason: "`[repository] previous` has no dnf/repodata/repomd.xml")
            }
            for name in (try? FileSystem.names(in: folder)) ?? [] where name.hasSuffix(".rpm") {
                sources[name] = folder.appendingPathComponent(name)
            }
        }
        for rpm in rpms {
            let name = rpm.lastPathComponent
            if let existing = sources[name] {
                guard try FileHasher.sha256(of: existing) == FileHasher.sha256(of: rpm) else {
                    throw RepositoryError.mismatch(
                        path: rpm.path,
                        reason:
                            "the previous repository already holds Packages/\(name) with other bytes; a published package is never replaced: release a new version"
                    )
                }
                continue
            }
            sources[name] = rpm
        }
        guard !sources.isEmpty else {
            throw RepositoryError.badInput(
                path: output.path,
                reason: "no .rpm to publish: run `relctl linux-package --tag TAG` first ([[package]] format = \"rpm\")")
        }
        // Built whole beside the old repository, which it replaces in one step: a write fault
        // leaves the old one as it was and nothing half-written in dist/.
        try AtomicFile.writeFolder(output) { staging in
            try FileSystem.createDirectory(staging.appendingPathComponent("Packages"))
            try FileSystem.createDirectory(staging.appendingPathComponent("repodata"))
            var primary: [String] = []
            var filelists: [String] = []
            var other: [String] = []
            for name in sources.keys.sorted() {
                let destination = staging.appendingPathComponent("Packages/\(name)")
                try FileSystem.copy(sources[name]!, to: destination)
                let info = try RpmPackageInfo(reading: destination)
                let sha256 = try FileHasher.sha256(of: destination)
                let size = FileSystem.size(of: destination) ?? 0
                primary.append(
                    try RepositoryText.primaryPackage(
                        info, sha256: sha256, size: size, location: "Packages/\(name)", time: Int(info.buildTime)))
                filelists.append(try RepositoryText.filelistsPackage(info, sha256: sha256))
                other.append(try RepositoryText.otherPackage(info, sha256: sha256))
            }
            var entries: [RepositoryText.RepomdEntry] = []
            for (type, packages) in [("primary", primary), ("filelists", filelists), ("other", other)] {
                let document = Data(RepositoryText.metadataDocument(type, packages: packages).utf8)
                let gzipped = try Gzip.compress(document, destination: "\(type).xml.gz")
                let sha256 = FileHasher.hex(SHA256.hash(data: gzipped))
                let location = "repodata/\(sha256)-\(type).xml.gz"
                try AtomicFile.write(gzipped, to: staging.appendingPathComponent(location))
                entries.append(
                    RepositoryText.RepomdEntry(
                        type: type, location: location, sha256: sha256, size: gzipped.count,
                        openSHA256: FileHasher.hex(SHA256.hash(data: document)), openSize: document.count))
            }
            let repomd = try RepositoryText.repomd(revision: epoch, entries: entries)
            try AtomicFile.write(repomd, to: staging.appendingPathComponent("repodata/repomd.xml"))
            try AtomicFile.write(
                try key.detachedSignature(of: Array(repomd.utf8), time: UInt32(clamping: epoch)),
                to: staging.appendingPathComponent("repodata/repomd.xml.asc"))
            try AtomicFile.write(
                key.armoredPublicKey, to: staging.appendingPathComponent(Self.keyName(project: origin)))
            for (name, text) in extraKeys { try AtomicFile.write(text, to: staging.appendingPathComponent(name)) }
        }
        return sources.count
    }
}
