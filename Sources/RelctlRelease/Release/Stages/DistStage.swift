import Foundation
import RelctlBasics
import RelctlDistribution

/// Moves the staged files into `dist/` once the tag is safe. Stages write into a staging folder
/// inside dist/ so a failed or interrupted release leaves dist/ exactly as it was. After this
/// stage the release is out: a later failure (an after hook) undoes nothing.
struct DistStage: ReleaseStage {
    init() {}
    static let stageName = "dist"
    var name: String { Self.stageName }
    var produces: Set<ReleaseFact> { [.dist] }
    var sealsRelease: Bool { true }

    func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? {
        run.stagingDirectory == run.distDirectory ? "written in place" : nil
    }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        let names = Self.stagedNames(in: run.stagingDirectory)
        // Checked for every name before anything moves, so a refusal leaves dist/ as it was.
        let stems = ReleasePreflight.archiveStems(tag: run.tag, version: run.identity.version, config: run.config)
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
            if name.contains("/") { try FileSystem.createFolders(of: name, inside: run.distDirectory) }
            // Staging and dist/ share a filesystem, so each file replaces atomically.
            try AtomicFile.commit(source, to: destination, registered: true)
            moved.append(destination)
        }
        try? FileSystem.remove(run.stagingDirectory)
        run.lock?.record { $0.sealed = true }
        outputs.distFiles = names
        return "\(names.count) file(s) in \(Self.shown(run.distDirectory, root: run.projectRoot))"
    }

    /// Folders whose files are merged into dist's folder of the same name (a tap's formula next to
    /// the formulae of earlier releases) instead of moved as a whole.
    static let mergedFolders: Set<String> = [HomebrewChannel.folder, ScoopChannel.folder]

    /// The staged names, sorted: top-level files and folders, and the files inside merged folders
    /// (`homebrew/Formula/velostream.rb`).
    static func stagedNames(in staging: URL) -> [String] {
        var names: [String] = []
        for name in ((try? FileSystem.names(in: staging)) ?? []) where !name.hasPrefix(".") {
            let url = staging.appendingPathComponent(name)
            if mergedFolders.contains(name), FileKind.isDirectory(url.path) {
                names += files(in: url, prefix: name)
            } else {
                names.append(name)
            }
        }
        return names.sorted()
    }

    private static func files(in folder: URL, prefix: String) -> [String] {
        var found: [String] = []
        for name in ((try? FileSystem.names(in: folder)) ?? []) where !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            guard let info = FileSystem.statusIfPresent(atPath: url.path, followingLinks: false) else { continue }
            if info.isDirectory {
                found += files(in: url, prefix: prefix + "/" + name)
            } else {
                found.append(prefix + "/" + name)
            }
        }
        return found
    }

    /// Why `destination` must not be replaced, or nil. The preflight found none of this tag's
    /// files in dist/, so anything now at one of their names, or anything that is not a plain file
    /// (a folder, a link), appeared during the release: relctl did not create it and never deletes it.
    /// Plain files of other names (an older SHA256SUMS, manifest.json) are replaced, as documented.
    static func obstruction(at destination: URL, name: String, stems: [String]) -> Diagnostic? {
        guard let info = FileSystem.statusIfPresent(atPath: destination.path, followingLinks: false) else { return nil }
        let isPlainFile = info.isRegularFile
        let isThisTags = stems.contains { name == $0 || name.hasPrefix($0 + ".") }
        guard !isPlainFile || isThisTags else { return nil }
        let what = info.article
        return Diagnostic(
            file: destination.path,
            "\(what) appeared here during the release (the preflight found nothing at this name); relctl did not create it, so it leaves it alone: move or delete it, then run the release again"
        )
    }

    static func shown(_ url: URL, root: URL) -> String {
        url.path.hasPrefix(root.path + "/") ? String(url.path.dropFirst(root.path.count + 1)) + "/" : url.path
    }
}
