import ArgumentParser
import RelctlArtifacts
import RelctlBasics
import RelctlProject
import RelctlRelease

struct Sign: RelctlCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sign SHA256SUMS: SHA256SUMS.sig (SSH signature, namespace file) and/or SHA256SUMS.minisig.",
        discussion: """
            Keys come from $RELCTL_SSH_KEY / $RELCTL_MINISIGN_KEY (the key's text, for CI secrets), else from \
            [sign] ssh-key / minisign-key (paths relative to the project root). An encrypted minisign key reads its \
            password from $RELCTL_MINISIGN_PASSWORD. Check with `ssh-keygen -Y verify -n file` and `minisign -V`, or \
            `relctl verify --allowed-signers FILE --minisign-key PUB`. With [provenance] enabled it also writes \
            {project}-{tag}.intoto.jsonl next to SUMS (SLSA provenance in a DSSE envelope, signed with the SSH key), \
            from manifest.json and the commit's time. Exit 2 when no key is configured or a key is unusable.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("Checksum file to sign (default: dist/SHA256SUMS).", valueName: "sums")) var sums:
        String?

    func execute(_ context: Context) async throws {
        let config = try ConfigLoader.loadIfPresent(path: global.config, context: context)
        let shown =
            sums
            ?? "\(ChecksumWriter.defaultFolder(config: config, context: context))/\(ChecksumAlgorithm.sha256.sumsFileName)"
        let provenance = try await ProvenanceWriter.prepare(sums: shown, config: config, context: context)
        var report = try ReleaseSigner.sign(sums: shown, config: config, context: context)
        report.provenance = try provenance?.write()
        if global.json { try emitJSON(report, context) }
        for signature in report.signatures { context.console.info("signed \(report.file): \(signature)") }
        if let written = report.provenance { context.console.info("provenance of \(report.file): \(written)") }
    }
}
