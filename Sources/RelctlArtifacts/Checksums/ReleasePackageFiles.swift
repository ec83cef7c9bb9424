import Foundation
import RelctlBasics
import RelctlModel

/// The `[npm]` tarballs, `[windows] msi` installers and `[pypi]` wheels (with their SBOMs) of a
/// release in a folder, for `relctl checksum`'s merge step: CI's build jobs upload them beside the
/// archives and the merge job lists them as `relctl release` does (`SHA256SUMS`; the npm packages
/// and MSIs as artifacts of `manifest.json`, the wheels under `packages`). A folder may hold other
/// releases' files (and `.tgz` Helm charts), so only the names this release's config and version
/// give are taken.
package enum ReleasePackageFiles {
    /// The endings of the files looked at.
    package static let extensions = [".tgz", MSIBuilder.fileExtension, ".whl", ".whl" + SBOMBuilder.fileExtension]

    /// Regular files with one of `extensions` directly in `directory`, sorted bytewise.
    package static func candidates(in directory: URL) -> [String] {
        FolderScan.regularFiles(in: directory) { name in extensions.contains { name.hasSuffix($0) } }
    }

    /// One file of the release found among the candidates.
    package struct Found: Sendable, Equatable {
        package var name: String
        package var kind: ArtifactKind
        /// The target triple; empty for the npm main package and the wheels' SBOMs.
        package var target: String
        /// `npm`, `msi`, `whl`, or `cdx.json` for an SBOM: what the release stages record.
        package var format: String
    }

    /// The candidates this release writes, in candidate order.
    package static func ofRelease(_ candidates: [String], config: RelctlConfig, tag: String, version: String?) -> [Found]
    {
        guard let version, !candidates.isEmpty, let targets = try? TargetResolver.resolveAll(config) else { return [] }
        var expected: [String: Found] = [:]
        if let settings = config.npm,
            let platforms = try? NpmPackageBuilder.platforms(settings: settings, targets: targets, config: config.path)
        {
            for platform in platforms {
                let name = NpmPackageBuilder.fileName(package: platform.name, version: version)
                expected[name] = Found(name: name, kind: .npm, target: platform.target.triple, format: "npm")
            }
            let main = NpmPackageBuilder.fileName(package: settings.package, version: version)
            expected[main] = Found(name: main, kind: .npm, target: "", format: "npm")
        }
        if config.windows.msi {
            let names = ReleaseNames(project: config.project.name, version: version, tag: tag)
            for (target, _) in MSIBuilder.targets(targets) {
                let name = MSIBuilder.fileName(config: config, names: names, target: target)
                expected[name] = Found(name: name, kind: .msi, target: target.triple, format: "msi")
            }
        }
        var wheels: [(prefix: String, target: String, platform: String)] = []
        if let settings = config.pypi, let pep440 = try? WheelName.version(version) {
            let prefix = WheelName.fileName(package: settings.package, version: pep440, platform: "")
            let stem = String(prefix.dropLast(".whl".count))
            for target in PythonWheelBuilder.targets(among: targets) {
                wheels.append((stem, target.triple, WheelName.platformTag(triple: target.triple)!))
            }
        }
        var found: [Found] = []
        for name in candidates {
            if let known = expected[name] {
                found.append(known)
                continue
            }
            let sbom = name.hasSuffix(".whl" + SBOMBuilder.fileExtension)
            let wheelName = sbom ? String(name.dropLast(SBOMBuilder.fileExtension.count)) : name
            guard wheelName.hasSuffix(".whl"),
                let wheel = wheels.first(where: {
                    wheelName.hasPrefix($0.prefix)
                        && fits(String(wheelName.dropFirst($0.prefix.count).dropLast(".whl".count)), tag: $0.platform)
                })
            else { continue }
            // An SBOM is listed only beside its wheel (the release writes one per wheel).
            if sbom, !candidates.contains(wheelName) { continue }
            found.append(
                sbom
                    ? Found(name: name, kind: .sbom, target: "", format: "cdx.json")
                    : Found(name: name, kind: .wheel, target: wheel.target, format: "whl"))
        }
        return found
    }

    /// Whether a wheel's platform tag is the one the target gets: the same, or for glibc Linux
    /// `manylinux_X_Y_ARCH` with the floor the binaries asked for (read when the wheel was written).
    private static func fits(_ platform: String, tag: String) -> Bool {
        if platform == tag { return true }
        let prefix = "manylinux_"
        guard tag.hasPrefix(prefix), platform.hasPrefix(prefix) else { return false }
        let wanted = tag.dropFirst(prefix.count).split(separator: "_", maxSplits: 2)
        let given = platform.dropFirst(prefix.count).split(separator: "_", maxSplits: 2)
        guard wanted.count == 3, given.count == 3, given[2] == wanted[2],
            let major = Int(given[0]), let minor = Int(given[1]), let floorMajor = Int(wanted[0]),
            let floorMinor = Int(wanted[1])
        else { return false }
        return (major, minor) >= (floorMajor, floorMinor)
    }
}
