import Foundation
import RelctlBasics
import RelctlModel

/// A SwiftPM artifact bundle of the release's executables (issue 58, item 6; `format =
/// "artifactbundle"`, written by `Packager` after the targets' archives):
/// `{project}-{version}.artifactbundle.zip` holding the folder `{project}-{version}.artifactbundle/`
/// with `info.json` (schema 1.0: each binary an `executable` artifact of the release's version,
/// one variant per target, `{project}-{version}-{triple}/bin/{binary}` with the target's Swift
/// triples) and the binaries, written by relctl's reproducible zip writer. SwiftPM's
/// `binaryTarget(url:checksum:)` checksum is what `swift package compute-checksum` prints: the
/// SHA-256 of the zip file, which `ArchiveFile.write` returns.
package enum ArtifactBundle {
    /// The `[archive]`/`[[target]]` format id that asks for the release-wide bundle.
    package static let format = "artifactbundle"
    /// How a bundle's file name ends (`relctl checksum` knows it by this, not by the name template).
    package static let fileSuffix = ".artifactbundle.zip"

    /// One target's binaries in the bundle.
    package struct Variant: Sendable {
        package var triple: String
        /// Each binary's name (as `[build] binaries` lists it) and its built file.
        package var binaries: [(name: String, source: URL)]

        package init(triple: String, binaries: [(name: String, source: URL)]) {
            self.triple = triple
            self.binaries = binaries
        }
    }

    /// The triples SwiftPM matches a variant against (`swift -print-target-info`'s
    /// `unversionedTriple`), for a target relctl names the Rust way; nil for a target a bundle of
    /// executables cannot serve (Windows, anything else).
    package static func swiftTriples(_ triple: String) -> [String]? {
        let target = TargetTriple(triple)
        switch triple {
        case "universal-apple-darwin": return ["arm64-apple-macosx", "x86_64-apple-macosx"]
        case "x86_64-apple-darwin": return ["x86_64-apple-macosx"]
        case "aarch64-apple-darwin": return ["arm64-apple-macosx"]
        default: break
        }
        guard !target.isWindows, triple.contains("-linux-") else { return nil }
        let arch = triple.prefix { $0 != "-" }
        if triple.hasSuffix("-musl") { return ["\(arch)-swift-linux-musl"] }
        return ["\(arch)-unknown-linux-gnu"]
    }

    /// The folder of one variant inside the bundle.
    package static func folder(project: String, version: String, triple: String) -> String {
        "\(project)-\(version)-\(triple)"
    }

    /// `info.json`: keys sorted, so the same release gives the same bytes.
    package static func infoJSON(
        project: String, version: String, binaries: [String], variants: [Variant]
    ) throws
        -> Data
    {
        var artifacts: [String: Any] = [:]
        for binary in binaries {
            let entries: [[String: Any]] = variants.compactMap { variant in
                guard let triples = swiftTriples(variant.triple),
                    let file = variant.binaries.first(where: { $0.name == binary })?.source.lastPathComponent
                else { return nil }
                return [
                    "path": folder(project: project, version: version, triple: variant.triple) + "/bin/" + file,
                    "supportedTriples": triples,
                ]
            }
            artifacts[binary] = ["version": version, "type": "executable", "variants": entries]
        }
        let object: [String: Any] = ["schemaVersion": "1.0", "artifacts": artifacts]
        return try JSONSerialization.data(
            withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
    }

    /// `{project}-{version}.artifactbundle.zip` (the version in the name, so two releases' bundles
    /// never share a name): the layout to write with `ArchiveFile.write` in zip format.
    package static func layout(
        project: String, version: String, binaries: [String], variants: [Variant]
    ) throws
        -> ArchiveLayout
    {
        var builder = LayoutBuilder()
        try builder.add(
            ArchiveEntry(
                path: "info.json",
                content: .generated(
                    try infoJSON(project: project, version: version, binaries: binaries, variants: variants)),
                mode: 0o644, origin: "info.json"))
        for variant in variants where swiftTriples(variant.triple) != nil {
            let base = folder(project: project, version: version, triple: variant.triple) + "/bin/"
            for binary in variant.binaries {
                try builder.add(
                    ArchiveEntry(
                        path: base + binary.source.lastPathComponent,
                        content: .file(ArchiveSource(path: binary.source.path)), mode: 0o755,
                        origin: binary.source.path))
            }
        }
        return ArchiveLayout(
            name: "\(project)-\(version).artifactbundle", format: "zip", links: .copy, entries: try builder.finish())
    }
}
