import ArgumentParser
import Foundation
import RelctlBasics
import RelctlChanges
import RelctlProject
import RelctlRelease

struct Notes: RelctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "notes",
        abstract: "Release notes from the git history since the previous release tag.",
        discussion: """
            The notes list the changes since the previous release (the highest release in the tag format below this \
            one, on any branch; a final release skips its own prereleases) up to the target: the commits the target \
            has and that release has not, less the patches it already shipped, and only those touching the project's \
            folder when relctl.toml is in a subfolder; the same changes `relctl bump` counts. Works without \
            relctl.toml. Exit 2 for an unknown ref, a malformed tag or a bad template.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("Start after this ref instead of the previous release tag.", valueName: "ref"))
    var from: String?
    @Option(help: ArgumentHelp("End at this ref (default: the tag when it exists, else HEAD).", valueName: "ref"))
    var to: String?
    @Option(
        help: ArgumentHelp(
            "The release the notes describe (default: a tag at the target, else unreleased).", valueName: "tag"))
    var tag: String?
    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Write the notes to FILE (atomically) instead of stdout.", valueName: "file"))
    var output: String?
    @Option(
        help: ArgumentHelp(
            "Insert this release's section in FILE above the older releases, in the file's heading style.",
            valueName: "file"))
    var changelog: String?
    @Flag(help: "With --changelog: replace a section for this release that relctl did not write.")
    var force = false
    @Option(help: ArgumentHelp("Folder whose manifest.json adds an Install section.", valueName: "dir"))
    var dist: String = "dist"

    func execute(_ context: Context) async throws {
        // Checked before the notes are built, so a wrong path costs nothing and writes nothing.
        for (flag, path) in [("--output", output), ("--changelog", changelog)] {
            guard let path, path != "-" else { continue }
            if FileSystem.isDirectory(context.resolve(path)) { throw NotesError.outputIsFolder(path: path, flag: flag) }
        }
        var config = try ConfigLoader.loadIfPresent(path: global.config, context: context)
        if config.workspace != nil {
            if let tag {
                // A member's release at the workspace root: its own tags, folder and history.
                config = try await config.forTag(tag, context: context)
            } else if let member = try await ProjectModel.members(
                of: config, git: Git(directory: config.root, context: context)
            ).first(where: { $0.path == "." }) {
                // The root is a member (apollo-client's `@apollo/client`): its unreleased changes,
                // since its own latest tag, not the whole repository's since a `v{version}` tag.
                config = member.config
                context.console.detail(
                    "notes of the root member `\(member.name)` (tag format \(member.config.project.tagFormat.pattern))")
            } else {
                context.console.warning(
                    "\(config.path) is a workspace root: these notes cover the whole repository; `relctl notes --tag TAG` with a member's tag gives that member's notes")
            }
        }
        let notes = try await ReleaseNotesBuilder(context: context).build(
            config: config, tag: tag, from: from, to: to, distDirectory: config.root.appendingPathComponent(dist)
        )
        let text = global.json ? try notes.json : notes.markdown
        if let output, output != "-" {
            let url = context.resolve(output)
            if FileSystem.kind(of: url) == .file,
                (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == false
            {
                // A device or pipe (`/dev/stdout`): write through it, never rename over it.
                guard let handle = FileHandle(forWritingAtPath: url.path) else {
                    throw NotesError.cannotWrite(path: output)
                }
                handle.write(Data(text.utf8))
                try handle.close()
            } else {
                try AtomicFile.write(text, to: url)
                context.console.info("wrote \(output)")
            }
        } else {
            context.console.stdout(text)
        }
        if let changelog {
            // Confined to the project (the working directory) when it names a file there; a file
            // elsewhere the user named is held to its own folder. Either way no link leads out.
            let url = context.resolve(changelog)
            let inside = url.path.hasPrefix(context.workingDirectory.path + "/")
            let (remarks, changed) = try Changelog.updateReporting(
                url, in: inside ? context.workingDirectory : url.deletingLastPathComponent(), with: notes,
                force: force, displayPath: changelog)
            for remark in remarks { context.console.warning(remark) }
            context.console.info(changed ? "updated \(changelog)" : "\(changelog) already holds these notes; unchanged")
        }
        let count = notes.entryCount
        context.console.detail("\(count) entr\(count == 1 ? "y" : "ies") since \(notes.previous ?? "the first commit")")
    }
}
