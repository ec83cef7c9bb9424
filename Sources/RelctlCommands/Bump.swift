import ArgumentParser
import Foundation
import RelctlBasics
import RelctlCore
import RelctlRelease

struct Bump: RelctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "bump",
        abstract: "Print the next version from the commits since the latest release.",
        discussion: """
            The latest release is the highest release in the tag format anywhere in the repository; its changes are \
            those `relctl notes` lists. Breaking change → major (minor below 1.0.0), feat → minor, anything else → \
            patch; after a prerelease \
            the prerelease counter continues (1.0.0-rc.1 → 1.0.0-rc.2). The result is never below the first \
            manifest's version and never a version an existing tag names, in any spelling (0.54.0 and v0.54.0 are \
            one version). --set VERSION uses VERSION instead (a lockstep train); --write refuses a version below a \
            manifest's or one a tag names. --write updates every configured manifest and its companions (Cargo.lock, \
            path-dependency requirements, package-lock.json, uv.lock, own npm pins).
            """
    )

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Write the new version into every [[version]] manifest, changing only the version text.")
    var write = false
    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "Use this version (or a tag in the tag format) instead of computing one.", valueName: "version"))
    var setVersion: String?

    /// `--json`: every key present, `null` when there is no previous release.
    struct Output: Encodable {
        @NullEncoded var previous: String?
        @NullEncoded var current: String?
        var next: String
        var tag: String
        var level: String
        var commits: Int
        var written: [String]
        var notes: [String]
    }

    func execute(_ context: Context) async throws {
        let config = try ConfigLoader.loadIfPresent(path: global.config, context: context)
        var bump: VersionBump
        if let setVersion {
            bump = try VersionBump.set(setVersion, config: config)
        } else {
            bump = try await VersionBump.compute(git: Git(directory: config.root, context: context), config: config)
            if bump.commitCount == 0, let previous = bump.previousTag {
                context.console.warning(
                    "no commits since \(previous); the version printed is what a release now would get")
            }
        }
        for note in bump.notes { context.console.warning(note) }
        var written: [String] = []
        if write {
            if config.versions.isEmpty {
                context.console.warning("\(config.path): no [[version]] entries; nothing to write")
            }
            let result = try await VersionBump.writeReporting(
                bump.next, config: config, git: Git(directory: config.root, context: context)
            ) { note in
                context.console.info(note)
                bump.notes.append(note)
            }
            written = result.files
            // Each text as written (a calendar version's padding, a requirement's operator kept),
            // naming what it is: a requirement is not the file's own version.
            for change in result.changes {
                context.console.info("\(change.file):\(change.line): \(change.what) \(change.old) → \(change.new)")
            }
            if result.changes.isEmpty, !config.versions.isEmpty {
                context.console.info("every version location already holds \(bump.nextText); nothing written")
            }
        }
        if global.json {
            try emitJSON(
                Output(
                    previous: bump.previousTag, current: bump.current?.description, next: bump.next.description,
                    tag: bump.nextTag, level: setVersion != nil ? "set" : bump.level.rawValue,
                    commits: bump.commitCount, written: written, notes: bump.notes), context)
        } else {
            context.console.stdout(bump.next.description + "\n")
            // stdout keeps the SemVer reading for scripts; a calendar tag pads it, which is said.
            if !bump.nextText.isEmpty, bump.nextText != bump.next.description {
                context.console.info("\(bump.next) is spelled \(bump.nextText) in the tag \(bump.nextTag)")
            }
            if setVersion != nil { return }
            context.console.detail(
                "\(bump.level.rawValue) bump from \(bump.previousTag ?? "no previous release") over \(bump.commitCount) commit\(bump.commitCount == 1 ? "" : "s")"
            )
        }
    }
}
