import Foundation
import RelctlBasics
import RelctlModel

/// What `relctl reproduce` found: every file of the published release against the rebuild's,
/// and where and how the rebuild ran. `--json` prints it; the text is a view of it, ending
/// with one line to paste into an issue.
public struct ReproduceReport: Codable, Sendable, Equatable {
    public var tag: String
    var commit: String
    /// True when every published file was rebuilt byte for byte and nothing else was.
    public var reproducible: Bool
    /// The published release compared against (`dist/`, a folder or a URL).
    var source: String
    var checksumFile: String
    /// The fresh clone the rebuild ran in, and how its surroundings differed.
    var clone: String
    var environment: RebuildEnvironment
    /// The rebuild's files, when kept (`--keep`).
    var keptDist: String?
    var files: [FileComparison]
    /// One line for an issue: verdict, commit, files, relctl version and the variations.
    public var issueLine: String

    /// The lines of the text report (without the issue line).
    public var lines: [String] {
        var lines = ["rebuilt \(tag) (commit \(commit.prefix(12))) in \(clone) (\(environment.summary))"]
        lines.append("compared with \(checksumFile) from \(source):")
        for file in files {
            lines.append("  " + file.summary)
            for member in file.archive?.members ?? [] { lines.append("      " + member.summary) }
            if let note = file.archive?.note { lines.append("      " + note) }
            if let first = file.firstDifference { lines.append("      " + first) }
            if let report = file.diffoscope {
                lines.append("      diffoscope:")
                lines += report.split(separator: "\n", omittingEmptySubsequences: false).prefix(60).map {
                    "        " + $0
                }
            }
        }
        if let keptDist { lines.append("the rebuild's files are kept in \(keptDist)") }
        return lines
    }

    /// The problems, one per file that is not identical (exit 1); nil when reproducible.
    public var failure: (any RelctlError)? {
        guard !reproducible else { return nil }
        return ReproduceError.differs(tag: tag, files: files.filter { !$0.isIdentical }.map(\.summary))
    }

    static func issueLine(
        tag: String, commit: String, files: [FileComparison], source: String, environment: RebuildEnvironment
    ) -> String {
        let bad = files.filter { !$0.isIdentical }
        let verdict: String
        if bad.isEmpty {
            verdict = "reproducible: \(files.count) of \(files.count) file(s) identical to the published checksums"
        } else {
            let named = bad.map { file -> String in
                let members = (file.archive?.members ?? []).prefix(3).map(\.path)
                let more = (file.archive?.members.count ?? 0) > 3 ? ", …" : ""
                return members.isEmpty
                    ? "\(file.name) \(file.status.rawValue)"
                    : "\(file.name) \(file.status.rawValue) [\(members.joined(separator: ", "))\(more)]"
            }
            verdict = "NOT reproducible: \(bad.count) of \(files.count) file(s): \(named.joined(separator: "; "))"
        }
        return
            "relctl reproduce \(tag) (commit \(commit.prefix(12)), published \(source)): \(verdict) — relctl \(RelctlVersion.version), \(environment.summary)"
    }
}
