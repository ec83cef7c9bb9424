import Foundation

/// Writes `RELEASE_NOTES.md` for the release.
/// (Interim implementation until ReleaseNotesBuilder lands on main.)
public struct NotesStage: ReleaseStage {
    public init() {}
    public var name: String { "notes" }

    public func perform(_ run: ReleaseRun) async throws -> String? {
        let git = run.git
        let previous = try? git.run(["describe", "--tags", "--abbrev=0", "\(run.commit)^"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let range = previous.map { "\($0)..\(run.commit)" } ?? run.commit
        let log = (try? git.run(["log", "--no-merges", "--format=- %s (%h)", range])) ?? ""
        let notes = "## \(run.tag)\n\n" + log
        run.notes = notes
        try AtomicFile.write(notes, to: run.distDirectory.appendingPathComponent("RELEASE_NOTES.md"))
        return "RELEASE_NOTES.md" + (previous.map { " (since \($0))" } ?? "")
    }
}
