import Foundation
import RelctlBasics
import RelctlModel

/// What the user asked `relctl release` to do.
public struct ReleaseOptions: Sendable {
    /// The tag to create, e.g. `v1.2.0`.
    var tag: String
    /// Run every stage in a scratch clone; create no tag, push nothing, write nothing in the project.
    public var dryRun: Bool = false
    /// Push the tag to `[release] remote` once it is created.
    public var push: Bool = false
    /// Keep the dry run's scratch folder (its path is printed) instead of removing it.
    public var keep: Bool = false
    /// Build only the target matching this machine.
    public var hostOnly: Bool = false
    /// Target globs (`--target`); empty means every configured target.
    public var targets: [String] = []
    /// Prebuilt binaries instead of building: `DIR/<binary-dir>/<binary>` (or `DIR/<binary>` for one target).
    public var artifactsDirectory: URL?
    /// Parallel jobs for build and package (nil: the stage's default).
    public var jobs: Int?
    /// Publish the GitHub release after the tag is pushed (`relctl publish`), then the channels' tap and bucket; needs `push`.
    public var publish: Bool = false
    /// Stop after the preflight (used by `relctl train run` to check every repository first).
    public var preflightOnly: Bool = false
    /// Run by `relctl train run`, which takes the release back when it fails after the tag
    /// (even in the stages after it): failure messages say so instead of "finish it by hand".
    public var inTrain: Bool = false
    /// Run by `relctl reproduce` (with `dryRun`) in a fresh clone of the released commit: the tag
    /// exists and must be on HEAD, branch, remote and dist/ are not checked, and nothing is
    /// tagged, signed, pushed or published; the build and packaging run as the release ran them.
    public var rebuild: Bool = false

    public init(tag: String) {
        self.tag = tag
    }

    /// The command that makes this release for real, with the same selection (`--host`,
    /// `--target`, `--artifacts`): what a dry run's plan tells the maintainer to run next.
    var realRunCommand: String {
        var words = ["relctl", "release", tag]
        if push { words.append("--push") }
        if publish { words.append("--publish") }
        if hostOnly { words.append("--host") }
        for glob in targets { words += ["--target", glob] }
        if let artifactsDirectory { words += ["--artifacts", artifactsDirectory.path] }
        if let jobs { words += ["--jobs", String(jobs)] }
        return words.map(Self.shellWord).joined(separator: " ")
    }

    /// Quotes a word for a POSIX shell unless it is plainly safe, so the line can be pasted as is.
    static func shellWord(_ word: String) -> String {
        let safe =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_./=:+@%".unicodeScalars.contains($0))
            }
        return safe ? word : "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
