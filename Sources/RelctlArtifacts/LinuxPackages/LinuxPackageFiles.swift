import Foundation
import RelctlBasics
import RelctlModel

/// The .deb/.rpm files of a release in a folder, for `relctl checksum`'s merge step: a folder may
/// hold other releases' packages, and only this release's (their names computed from the config
/// and the version) are listed.
package enum LinuxPackageFiles {
    package static let extensions = LinuxPackageFormats.ids.map { "." + $0 }

    /// Regular files named `*.deb`/`*.rpm` directly in `directory`, sorted bytewise.
    package static func candidates(in directory: URL) -> [String] {
        FolderScan.regularFiles(in: directory) { name in extensions.contains { name.hasSuffix($0) } }
    }

    /// The `candidates` this release writes.
    package static func ofRelease(_ candidates: [String], config: RelctlConfig, version: String?) -> [String] {
        guard let version, !candidates.isEmpty, let targets = try? TargetResolver.resolveAll(config) else { return [] }
        let expected = Set(LinuxPackageBuilder.fileNames(config: config, version: version, targets: targets))
        return candidates.filter { expected.contains($0) }
    }
}
