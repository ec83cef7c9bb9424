import Foundation
import RelctlBasics
import RelctlModel

/// A package.json relctl writes: the platform packages' (`os`, `cpu`, `libc`, the binary in
/// `bin/`) and the main package's (`optionalDependencies` on every platform package at this
/// exact version, `bin` pointing at the launchers). Encoded with sorted keys, so the same
/// release gives the same bytes.
package struct NpmPackageDocument: Encodable, Sendable, Equatable {
    package struct Repository: Encodable, Sendable, Equatable {
        package var type = "git"
        package var url: String
    }

    package var name: String
    package var version: String
    package var description: String
    package var license: String?
    package var homepage: String?
    package var repository: Repository?
    package var os: [String]?
    package var cpu: [String]?
    package var libc: [String]?
    package var bin: [String: String]?
    package var optionalDependencies: [String: String]?
    /// Yarn's hint that a package holding a binary must be unpacked on disk.
    package var preferUnplugged: Bool?

    /// The file as it goes in the tarball: two-space indented, sorted keys, a final newline.
    package func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        return data
    }

    /// `git+https://github.com/owner/repo.git` from a remote URL GitHub or GitLab hosts; nil for others.
    package static func repositoryURL(remoteURL: String?) -> String? {
        guard let remoteURL, let links = RepositoryLinks(remoteURL: remoteURL) else { return nil }
        return "git+" + links.baseURL + ".git"
    }
}
