import ArgumentParser
import RelctlArtifacts
import RelctlBasics
import RelctlProject
import RelctlRelease

struct Checksum: RelctlCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write NAME.sha256, the combined SHA256SUMS and manifest.json for the archives found.",
        discussion: """
            Each PATH is a folder (every .tar.gz .tar.xz .tar.zst .zip directly in it; its lists are rebuilt) \
            or an archive (merged into the lists already in its folder). Works without relctl.toml. \
            Exit 0 when written, 2 for a missing path, a folder without archives or archives of two releases.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("Folders or archives (default: dist/).", valueName: "path")) var paths: [String] = []
    @Option(help: ArgumentHelp("sha256 or sha512 (default: [checksum] algorithm, else sha256).", valueName: "name"))
    var algorithm: String?
    @Option(help: ArgumentHelp("Files hashed at once (default: one per core).", valueName: "n")) var jobs: Int?

    func validate() throws {
        if let problem = ParallelJobs.problem(jobs) { throw ValidationError(problem) }
        try EnumeratedOption.check(
            algorithm.map { [$0] } ?? [], option: "--algorithm <name>",
            known: ChecksumAlgorithm.allCases.map(\.rawValue)
        ) { $0.lowercased().replacingOccurrences(of: "-", with: "") }
    }

    func execute(_ context: Context) async throws {
        let config = try ConfigLoader.loadIfPresent(path: global.config, context: context)
        let chosen = try ChecksumAlgorithm(
            id: algorithm ?? config.checksum.algorithm, file: algorithm == nil ? config.path : nil)
        let report = try await ChecksumWriter.run(
            paths: paths, algorithm: chosen, config: config, context: context, jobs: jobs)
        if global.json { try emitJSON(report, context) }
        for folder in report.folders {
            // The npm tarballs and MSIs are artifacts of manifest.json too, the wheels its `packages`.
            let count = folder.release.artifacts.filter { !["npm", "msi"].contains($0.format) }.count
            let packages = folder.release.artifacts.count - count + (folder.release.packages?.count ?? 0)
            let also = packages == 0 ? "" : " and \(packages) package\(packages == 1 ? "" : "s")"
            context.console.info(
                "\(folder.directory): \(folder.sums) and \(folder.manifest) list \(count) archive\(count == 1 ? "" : "s")\(also) (\(folder.hashed.count) hashed)"
            )
            for name in folder.hashed { context.console.detail("  \(name)") }
        }
    }
}
