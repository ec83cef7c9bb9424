import Foundation

/// Moves the staged files into `dist/` once the tag is safe. Stages write into a staging folder
/// inside dist/ so a failed or interrupted release leaves dist/ exactly as it was.
public struct PublishStage: ReleaseStage {
    public init() {}
    public var name: String { "dist" }

    public func skipReason(_ run: ReleaseRun) -> String? {
        run.distDirectory == run.finalDistDirectory ? "written in place" : nil
    }

    public func perform(_ run: ReleaseRun) async throws -> String? {
        let fileManager = FileManager.default
        let names = try fileManager.contentsOfDirectory(atPath: run.distDirectory.path).filter { !$0.hasPrefix(".") }.sorted()
        for name in names {
            let source = run.distDirectory.appendingPathComponent(name)
            let destination = run.finalDistDirectory.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: destination.path, isDirectory: &isDirectory), isDirectory.boolValue {
                try fileManager.removeItem(at: destination)
            }
            // rename(2) replaces files atomically; staging and dist/ share a filesystem.
            try AtomicFile.commit(source, to: destination)
        }
        try? fileManager.removeItem(at: run.distDirectory)
        return "\(names.count) file(s) in \(Self.shown(run.finalDistDirectory, root: run.projectRoot))"
    }

    static func shown(_ url: URL, root: URL) -> String {
        url.path.hasPrefix(root.path + "/") ? String(url.path.dropFirst(root.path.count + 1)) + "/" : url.path
    }
}
