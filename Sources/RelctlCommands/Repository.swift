import ArgumentParser
import RelctlBasics
import RelctlCore

struct Repository: RelctlCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the signed APT repository (dist/apt/) of this release's .deb packages.",
        discussion: """
            Adds this release's packages (the .deb files SHA256SUMS lists) to the previous repository \
            ([repository] previous, a folder) and writes dists/SUITE/{Release,InRelease,Release.gpg}, \
            main/binary-ARCH/Packages{,.gz}, pool/ and {project}-archive-keyring.gpg for `signed-by`. Signed with the \
            OpenPGP key in $RELCTL_REPOSITORY_KEY or [repository] signing-key (an Ed25519 or RSA key as \
            `gpg --export-secret-keys --armor` writes it). Dates come from the release, so the same inputs give the \
            same bytes. Exit 2 when no key or no package, 1 when the previous repository does not check out.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "The release tag, e.g. v1.2.0.") var tag: String
    @Option(help: ArgumentHelp("Folder holding the packages and receiving apt/ (default: dist/).", valueName: "dir"))
    var out: String?

    func execute(_ context: Context) async throws {
        let config = try ConfigLoader.load(path: global.config, context: context)
        let report = try await RepositoryBuilder(context: context).build(
            config: config, tag: tag, output: out.map { context.resolve($0) })
        if global.json { try emitJSON(report, context) }
    }
}
