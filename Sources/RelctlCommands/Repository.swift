import ArgumentParser
import RelctlArtifacts
import RelctlBasics
import RelctlDistribution
import RelctlModel
import RelctlProject

struct Repository: RelctlCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the signed APT and DNF repositories (dist/apt/, dist/dnf/) of this release's packages.",
        discussion: """
            Adds this release's packages (the .deb files SHA256SUMS lists) to the previous repository \
            (--previous or [repository] previous, a folder or its https:// URL) and writes dists/SUITE/{Release,InRelease,Release.gpg}, \
            main/binary-ARCH/Packages{,.gz}, pool/ and {project}-archive-keyring.gpg for `signed-by`. Signed with the \
            OpenPGP key in $RELCTL_REPOSITORY_KEY or [repository] signing-key (an Ed25519 or RSA key as \
            `gpg --export-secret-keys --armor` writes it). Dates come from the release, so the same inputs give the \
            same bytes. With --publish, commits apt/ and dnf/ to [repository] branch of the project's remote (under \
            [repository] folder) and pushes, a no-op when the branch already holds them. Exit 2 when no key or no \
            package, 1 when the previous repository does not check out or publishing would drop a published package.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "The release tag, e.g. v1.2.0.") var tag: String
    @Option(help: ArgumentHelp("Folder holding the packages and receiving apt/ (default: dist/).", valueName: "dir"))
    var out: String?
    @Option(
        help: ArgumentHelp(
            "The published repository to extend instead of [repository] previous: a folder holding apt/ and dnf/ (e.g. a checkout of [repository] branch) or its https:// URL.",
            valueName: "folder-or-url"))
    var previous: String?
    @Flag(help: "Commit and push the repositories to [repository] branch of the project's remote.")
    var publish = false

    func execute(_ context: Context) async throws {
        var config = try ConfigLoader.load(path: global.config, context: context)
        if let previous {
            // A folder is the caller's, resolved from the working directory; a URL is kept.
            let isURL = previous.hasPrefix("http://") || previous.hasPrefix("https://")
            config.repositories.previous = isURL ? previous : context.resolve(previous).path
        }
        let dist = out.map { context.resolve($0) } ?? config.distDirectory
        // Only the clock: the repositories take the packages' versions, not the tag's.
        let time = try await ReleaseIdentity.clock(forTag: tag, root: config.root, context: context)
        var report = try await RepositoryBuilder(context: context).write(
            config: config, epoch: time, dist: dist, keysRoot: config.root)
        if publish {
            report.published = try await RepositoryPublisher(context: context).publish(
                config: config, dist: dist, tag: tag, time: time, dryRun: false)
        }
        if global.json { try emitJSON(report, context) }
    }
}
