import ArgumentParser
import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlProject
import RelctlRelease

struct Verify: RelctlCommand {
    static let configuration = CommandConfiguration(
        abstract: "Re-hash every file a checksum file lists; report changed, missing and unlisted files.",
        discussion: """
            Reads sha256sum/sha512sum lines (`HEX  NAME`, `HEX *NAME`) and BSD lines (`SHA256 (NAME) = HEX`). \
            Exit 0 when all match, 1 when a file is changed, missing, or an archive next to a combined file is not \
            listed (unless --allow-unlisted), 2 for a missing checksum file or a malformed line. \
            With --allowed-signers / --minisign-key (or [sign] allowed-signers / minisign-public-key), SUMS.sig and \
            SUMS.minisig are verified too: a missing or bad signature is exit 1. With an allowed-signers file the \
            provenance ({project}-{tag}.intoto.jsonl) is checked as well: its signature, its subjects against SUMS, \
            its commit against the tag's; each difference is named (exit 1).
            """
    )

    @OptionGroup var global: GlobalOptions
    @Argument(
        help: ArgumentHelp(
            "Checksum file (default: dist/SHA256SUMS, or dist/SHA512SUMS when that is the only one).", valueName: "sums"
        )) var sums: String?
    @Flag(help: "Report archives the file does not list, but do not fail because of them.") var allowUnlisted = false
    @Option(help: ArgumentHelp("Files hashed at once (default: one per core).", valueName: "n")) var jobs: Int?
    @Option(
        help: ArgumentHelp(
            "ssh-keygen allowed-signers file: SUMS.sig must be signed by one of its keys.", valueName: "file"))
    var allowedSigners: String?
    @Option(help: ArgumentHelp("minisign public key (.pub): SUMS.minisig must verify with it.", valueName: "pub"))
    var minisignKey: String?
    @Option(
        help: ArgumentHelp(
            "OpenPGP public key (armored or binary keyring): dist's apt/ and dnf/ repositories must be signed by it and match their indexes.",
            valueName: "key"))
    var repositoryKey: String?

    func validate() throws {
        if let problem = ParallelJobs.problem(jobs) { throw ValidationError(problem) }
    }

    func execute(_ context: Context) async throws {
        let shown = try sums ?? defaultSums(context)
        if let repositoryKey {
            let dist = context.resolve(shown).deletingLastPathComponent()
            let checks = try RepositoryVerifier.verify(dist: dist, keyFile: context.resolve(repositoryKey))
            for check in checks {
                context.console.info("\(check.repository): signatures good, \(check.files) indexed file(s) match")
            }
            // Repositories alone (no archives in this folder yet): nothing else to check.
            if sums == nil, !FileSystem.exists(context.resolve(shown)) { return }
        }
        let config = try ConfigLoader.loadIfPresent(path: global.config, context: context)
        if sums == nil, let report = ChecksumVerifier.tagOnlyReport(sums: shown, config: config, context: context) {
            if global.json { try emitJSON(report, context) }
            context.console.info(
                "nothing to verify: \(config.path.lastPathComponent) has no [[target]], so a release is a tag only (no archives, no \(shown))"
            )
            return
        }
        var report = try await ChecksumVerifier.verify(
            sums: shown, allowUnlisted: allowUnlisted, context: context, jobs: jobs)
        report.signatures = try SignatureVerifier.verify(
            sums: shown, flags: .init(allowedSigners: allowedSigners, minisignPublicKey: minisignKey),
            settings: config.sign, root: config.root, context: context)
        report.provenance = try await ProvenanceVerifier.verify(
            sums: shown, allowedSigners: allowedSigners, config: config, context: context)
        if global.json { try emitJSON(report, context) }
        for file in report.files {
            switch file.status {
            case .ok: context.console.detail("ok        \(file.name)")
            case .unlisted where report.unlistedAllowed:
                context.console.warning("\(file.name): not listed in \(report.file)")
            default: break
            }
        }
        if let failure = report.failure { throw failure }
        let count = report.files.filter { $0.status == .ok }.count
        context.console.info("\(report.file): \(count) file\(count == 1 ? "" : "s") ok")
        for check in report.signatures {
            context.console.info("\(check.file): good \(check.kind) signature by \(check.signer ?? "the given key")")
        }
        if let provenance = report.provenance {
            context.console.info(provenance.summary)
        }
    }

    /// In the dist folder `relctl checksum` writes to: the one of `--config`'s project when given.
    private func defaultSums(_ context: Context) throws -> String {
        let folder =
            global.config == nil
            ? ChecksumWriter.defaultDirectory
            : ChecksumWriter.defaultFolder(
                config: try ConfigLoader.load(path: global.config, context: context), context: context)
        let sha256 = "\(folder)/\(ChecksumAlgorithm.sha256.sumsFileName)"
        let sha512 = "\(folder)/\(ChecksumAlgorithm.sha512.sumsFileName)"
        let has256 = FileSystem.exists(atPath: context.resolve(sha256).path)
        let has512 = FileSystem.exists(atPath: context.resolve(sha512).path)
        return !has256 && has512 ? sha512 : sha256
    }
}
