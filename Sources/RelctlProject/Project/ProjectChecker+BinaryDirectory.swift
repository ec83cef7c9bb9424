import Foundation
import RelctlBasics
import RelctlModel

extension ProjectChecker {
    /// A `binary-dir` git does not ignore: the build's output then shows as untracked files, so
    /// the next release's preflight refuses the dirty tree. Found now, as a warning naming the fix.
    /// Asked of git's own rules (`git check-ignore`), which answer for paths not built yet.
    package static func checkBinaryDirectories(
        _ config: RelctlConfig, context: Context, into report: inout CheckReport
    ) async {
        guard let binary = config.build.binaries.first,
            let targets = try? TargetResolver.resolveAll(config), !targets.isEmpty
        else { return }
        let git = Git(directory: config.root, context: context)
        var seen: Set<String> = []
        for target in targets {
            let settings = config.targets.first { $0.triple == target.triple }
            let directory = (settings?.binaryDirectory ?? config.build.binaryDirectory).render(
                target.placeholders.merging(["project": config.project.name]) { mine, _ in mine })
            guard seen.insert(directory).inserted, !directory.isEmpty else { continue }
            let path = directory + "/" + target.executableName(binary)
            // Exit 1: not ignored; 0: ignored; 128: no repository or a path outside it (said elsewhere).
            guard let result = try? await git.runUnchecked(["check-ignore", "-q", "--", path]),
                result.status == 1
            else { continue }
            let top = directory.split(separator: "/").first.map(String.init) ?? directory
            report.warning(
                Diagnostic(
                    file: config.path,
                    "binary-dir `\(directory)` is not ignored by git: the build's output will make the working tree dirty and the next `relctl release` refuses a dirty tree; add `/\(top)/` to .gitignore"
                ))
        }
    }
}
