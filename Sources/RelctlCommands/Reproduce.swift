import ArgumentParser
import RelctlBasics
import RelctlProject
import RelctlRelease

struct Reproduce: RelctlCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rebuild a released tag from a fresh clone and compare every file with the published SHA256SUMS.",
        discussion: """
            Clones the repository at TAG into a new folder at another path and, under another umask, time zone \
            and locale, runs the release's build and packaging exactly as `relctl release TAG --dry-run` would \
            (nothing is tagged, signed, pushed or published). Then every file the published SHA256SUMS lists is \
            compared with the rebuild's; inside a differing archive every differing member is named (path, size, \
            sha256, mode, mtime, link target), with diffoscope's report when it is installed. The published files \
            come from dist/ (default), a folder (--from DIR) or the release's download URL (--from \
            https://…/releases/download/TAG/). The working tree, the tag and dist/ are never written. \
            Exit 0 when identical, 1 naming each differing file, 2 for bad input (unknown tag, no SHA256SUMS). \
            The text ends with one line to paste into an issue.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The released tag to rebuild, e.g. v1.2.0.") var tag: String
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The published release: a folder or an https:// URL holding SHA256SUMS and the files (default: dist/).",
            valueName: "dir|url"))
    var from: String?
    @Flag(name: .long, help: "Keep the clone and the rebuild's files (their paths are printed).") var keep = false

    func execute(_ context: Context) async throws {
        let config = try ConfigLoader.load(path: global.config, context: context)
        var options = Reproducer.Options(tag: tag)
        options.source = from
        options.keep = keep
        let report = try await Reproducer.run(options, config: config, context: context)
        if global.json { try emitJSON(report, context) }
        for line in report.lines { context.console.info(line) }
        if let failure = report.failure {
            for diagnostic in failure.diagnostics { context.console.error(diagnostic.description) }
        }
        // Last, so a user can copy it whole: the verdict with what it was checked against.
        context.console.info(report.issueLine)
        if let failure = report.failure { throw ExitCode(failure.exitCode.rawValue) }
    }
}
