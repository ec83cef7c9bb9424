import Foundation
import RelctlBasics
import RelctlChanges

/// Writes `RELEASE_NOTES.md` with `ReleaseNotesBuilder` (the same notes as `relctl notes`), from
/// the previous release tag to the released commit, with the Install section from the manifest
/// the checksum stage produced.
public struct NotesStage: ReleaseStage {
    init() {}
    public var name: String { "notes" }
    public var produces: Set<ReleaseFact> { [.notes] }
    /// The Install section: the manifest, and the installers and signatures found in the staging folder.
    public var reads: Set<ReleaseFact> { [.checksums, .installers, .signatures] }
    public var runsAlongside: Bool { true }

    public static let fileName = "RELEASE_NOTES.md"

    public func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        let notes = try await ReleaseNotesBuilder(context: run.context).build(
            config: run.config, tag: run.tag, version: run.identity.version, to: run.identity.commit,
            manifest: outputs.checksums?.manifest, remoteURL: .some(run.remoteURL), distDirectory: run.stagingDirectory,
            keysRoot: run.projectRoot
        )
        let markdown = notes.markdown
        try AtomicFile.write(markdown, to: run.stagingDirectory.appendingPathComponent(Self.fileName))
        outputs.notes = markdown
        let count = notes.entryCount
        return
            "\(Self.fileName): \(count) entr\(count == 1 ? "y" : "ies") since \(notes.previous ?? "the first commit")"
    }
}
