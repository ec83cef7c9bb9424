import Foundation

/// Writes `RELEASE_NOTES.md` with `ReleaseNotesBuilder` (the same notes as `relctl notes`), from
/// the previous release tag to the released commit, with the Install section from manifest.json.
public struct NotesStage: ReleaseStage {
    public init() {}
    public var name: String { "notes" }

    public static let fileName = "RELEASE_NOTES.md"

    public func perform(_ run: ReleaseRun) async throws -> String? {
        let notes = try ReleaseNotesBuilder(context: run.context).build(
            config: run.config, tag: run.tag, to: run.commit, distDirectory: run.distDirectory
        )
        let markdown = notes.markdown
        try AtomicFile.write(markdown, to: run.distDirectory.appendingPathComponent(Self.fileName))
        run.notes = markdown
        let count = notes.entries.count
        return "\(Self.fileName): \(count) entr\(count == 1 ? "y" : "ies") since \(notes.previous ?? "the first commit")"
    }
}
