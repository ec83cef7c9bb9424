import Foundation

/// Packages one archive per target into the run's dist folder.
/// (Interim implementation with GNU tar until the Packager lands on main.)
public struct PackageStage: ReleaseStage {
    public init() {}
    public var name: String { "package" }

    public func perform(_ run: ReleaseRun) async throws -> String? {
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: run.distDirectory, withIntermediateDirectories: true)
        let committed = try run.git.committerTime(of: run.commit)
        let mtime = run.context.environment["SOURCE_DATE_EPOCH"].flatMap(Int.init) ?? committed
        for (index, target) in run.targets.enumerated() {
            run.progress.update("packaging \(target.triple) (\(index + 1)/\(run.targets.count))")
            var values = run.placeholders
            for (key, value) in target.placeholders { values[key] = value }
            let stem = run.config.archive.name.render(values)
            let work = fileManager.temporaryDirectory.appendingPathComponent("relctl-pkg-\(UUID().uuidString)")
            CleanupRegistry.shared.register(work)
            defer { try? fileManager.removeItem(at: work); CleanupRegistry.shared.unregister(work) }
            let top = work.appendingPathComponent(stem)
            try fileManager.createDirectory(at: top.appendingPathComponent("bin"), withIntermediateDirectories: true)
            for binary in run.config.build.binaries.map(target.executableName) {
                let source = run.binaryDirectories[target.triple]!.appendingPathComponent(binary)
                try fileManager.copyItem(at: source, to: top.appendingPathComponent("bin").appendingPathComponent(binary))
            }
            for mapping in run.config.archive.files + run.config.archive.trees {
                let destination = top.appendingPathComponent(mapping.to.render(values))
                try fileManager.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
                try fileManager.copyItem(at: run.config.root.appendingPathComponent(mapping.from.render(values)), to: destination)
            }
            let archive = run.distDirectory.appendingPathComponent("\(stem).tar.gz")
            try run.context.processes.checked(Command("tar", [
                "--sort=name", "--owner=0", "--group=0", "--numeric-owner", "--mtime=@\(mtime)",
                "-C", work.path, "-cf", archive.path + ".tar", stem,
            ]))
            try run.context.processes.checked(Command("gzip", ["-n", "-f", archive.path + ".tar"]))
            try fileManager.moveItem(atPath: archive.path + ".tar.gz", toPath: archive.path)
            run.artifacts.append(.init(name: archive.lastPathComponent, target: target.triple, format: "tar.gz", size: 0, sha256: ""))
        }
        return "\(run.targets.count) archive(s)"
    }
}
