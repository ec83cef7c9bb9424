import Foundation

/// Moves the staged files into `dist/` once the tag is safe. Stages write into a staging folder
/// inside dist/ so a failed or interrupted release leaves dist/ exactly as it was. After this
/// stage the release is out: a later failure (an after hook) undoes nothing.
struct DistStage: ReleaseStage {
    init() {}
    var name: String { "dist" }
    var produces: Set<ReleaseFact> { [.dist] }
    var sealsRelease: Bool { true }

    func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? {
        run.stagingDirectory == run.distDirectory ? "written in place" : nil
    }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        let names = try Self.releaseFiles(in: run.stagingDirectory)
        // Checked for every name before anything moves, so a refusal leaves dist/ as it was.
        let stems = ReleasePreflight.archiveStems(tag: run.tag, config: run.config)
        let blocked = names.compactMap { name in
            Self.obstruction(at: run.distDirectory.appendingPathComponent(name), name: name, stems: stems)
        }
        if !blocked.isEmpty {
            throw ProblemList(exitCode: .failure, diagnostics: blocked)
        }
        // If this process is killed while moving, the next release knows which files were ours.
        run.lock?.record { $0.distFiles = names }
        // Until the release is sealed, Ctrl-C takes the tag back: the files moved so far go too
        // (each is registered in the same step as its rename), so dist/ holds no files of a tag
        // that does not exist.
        var moved: [URL] = []
        defer { for url in moved { CleanupRegistry.shared.unregister(url) } }
        for name in names {
            let source = run.stagingDirectory.appendingPathComponent(name)
            let destination = run.distDirectory.appendingPathComponent(name)
            // rename(2) replaces files atomically; staging and dist/ share a filesystem.
            guard CleanupRegistry.shared.appear(destination, by: { rename(source.path, destination.path) }) == 0 else {
                throw FileSystemError(
                    path: destination.path, action: "cannot move the finished file into place", errno: errno)
            }
            moved.append(destination)
        }
        try? FileSystem.remove(run.stagingDirectory)
        run.lock?.record { $0.sealed = true }
        outputs.distFiles = names
        return "\(names.count) file(s) in \(Self.shown(run.distDirectory, root: run.projectRoot))"
    }

    /// Why `destination` must not be replaced, or nil. The preflight found none of this tag's
    /// files in dist/, so anything now at one of their names, or anything that is not a plain file
    /// (a folder, a link), appeared during the release: relctl did not create it and never deletes it.
    /// Plain files of other names (an older SHA256SUMS, manifest.json) are replaced, as documented.
    static func obstruction(at destination: URL, name: String, stems: [String]) -> Diagnostic? {
        var info = stat()
        guard lstat(destination.path, &info) == 0 else { return nil }
        let isPlainFile = (info.st_mode & S_IFMT) == S_IFREG
        let isThisTags = stems.contains { name == $0 || name.hasPrefix($0 + ".") }
        guard !isPlainFile || isThisTags else { return nil }
        let what: String
        switch info.st_mode & S_IFMT {
        case S_IFREG: what = "a file"
        case S_IFDIR: what = "a folder"
        case S_IFLNK: what = "a symbolic link"
        default: what = "a " + FileKind.describe(info.st_mode)
        }
        return Diagnostic(
            file: destination.path,
            "\(what) appeared here during the release (the preflight found nothing at this name); relctl did not create it, so it leaves it alone: move or delete it, then run the release again"
        )
    }

    /// The names the stages wrote into `staging` (hidden temporaries left out), sorted: what this
    /// stage moves into dist/, and what a dry run reports it would.
    static func releaseFiles(in staging: URL) throws -> [String] {
        try FileSystem.names(in: staging).filter { !$0.hasPrefix(".") }.sorted()
    }

    static func shown(_ url: URL, root: URL) -> String {
        url.path.hasPrefix(root.path + "/") ? String(url.path.dropFirst(root.path.count + 1)) + "/" : url.path
    }
}
