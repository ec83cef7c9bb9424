import Foundation

/// Moves the staged files into `dist/` once the tag is safe. Stages write into a staging folder
/// inside dist/ so a failed or interrupted release leaves dist/ exactly as it was. After this
/// stage the release is out: a later failure (an after hook) undoes nothing.
public struct DistStage: ReleaseStage {
    public init() {}
    public var name: String { "dist" }
    public var produces: Set<ReleaseFact> { [.dist] }
    public var sealsRelease: Bool { true }

    public func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? {
        run.stagingDirectory == run.distDirectory ? "written in place" : nil
    }

    public func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        let fileManager = FileManager.default
        let names = try fileManager.contentsOfDirectory(atPath: run.stagingDirectory.path).filter { !$0.hasPrefix(".") }
            .sorted()
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
            if FileKind.isDirectory(destination.path) { try fileManager.removeItem(at: destination) }
            // rename(2) replaces files atomically; staging and dist/ share a filesystem.
            guard CleanupRegistry.shared.appear(destination, by: { rename(source.path, destination.path) }) == 0 else {
                let reason = String(cString: strerror(errno))
                throw SimpleError(
                    .failure, file: destination.path, "cannot move the finished file into place: \(reason)")
            }
            moved.append(destination)
        }
        try? fileManager.removeItem(at: run.stagingDirectory)
        run.lock?.record { $0.sealed = true }
        outputs.distFiles = names
        return "\(names.count) file(s) in \(Self.shown(run.distDirectory, root: run.projectRoot))"
    }

    static func shown(_ url: URL, root: URL) -> String {
        url.path.hasPrefix(root.path + "/") ? String(url.path.dropFirst(root.path.count + 1)) + "/" : url.path
    }
}
