import ArgumentParser
import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel
import RelctlProject
import RelctlRelease

struct LinuxPackage: RelctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "linux-package",
        abstract: "Write the [[package]] .deb and .rpm files of the Linux targets into dist/.",
        // --tag is optional only beside --export-key: the usage shows both forms, so --help does
        // not offer a run without --tag that is then refused (exit 64).
        usage: """
            relctl linux-package --tag <tag> [--target <triple|glob> ...] [--format <id> ...] [--out <dir>] [--artifacts <dir>] [<global options>]
            relctl linux-package --export-key <file> [<global options>]
            """,
        discussion: """
            Native packages without an external packager: the built binaries in /usr/bin (0755 root:root), the \
            copyright (DEP-5) and, in the .deb, changelog.gz from the release notes under /usr/share/doc/{project}/. \
            Byte-identical on every run (SOURCE_DATE_EPOCH or the tagged commit's time). CI runs it after \
            `relctl build --target T` in each Linux job; `relctl checksum dist/` then lists the packages in SHA256SUMS. \
            An rpm table with `signing-key` (or $RELCTL_RPM_SIGNING_KEY) gets a header OpenPGP (EdDSA) signature; \
            `--export-key FILE` writes that key's armored public key for `rpm --import` and writes no package. \
            Exit 2 when metadata, binaries or a [[package]] table are missing.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Option(
        help: ArgumentHelp(
            "Required (except with --export-key): the release tag, e.g. v1.2.0 (checked against the manifests first).",
            valueName: "tag")
    ) var tag: String?
    @Option(
        name: .customLong("target"),
        help: ArgumentHelp(
            "A target triple or glob; repeat for several (default: all Linux targets).", valueName: "triple|glob"))
    var targets: [String] = []
    @Option(
        name: .customLong("format"),
        help: ArgumentHelp(
            "Only this [[package]] format (deb, rpm); repeat for several (default: all).", valueName: "id"))
    var formats: [String] = []
    @Option(help: ArgumentHelp("Output folder (default: dist/ in the project).", valueName: "dir")) var out: String?
    @Option(
        help: ArgumentHelp("Read prebuilt binaries from here instead of the project's binary-dir.", valueName: "dir"))
    var artifacts: String?
    @Option(
        name: .customLong("export-key"),
        help: ArgumentHelp(
            "Write the rpm signing key's armored OpenPGP public key here (for `rpm --import`), and nothing else.",
            valueName: "file"))
    var exportKey: String?

    func validate() throws {
        try EnumeratedOption.check(formats, option: "--format <id>", known: LinuxPackageFormats.ids)
        if exportKey == nil, tag == nil { throw ValidationError("Missing expected argument '--tag <tag>'") }
        if exportKey != nil, tag != nil { throw ValidationError("--export-key writes only the key; leave out --tag") }
    }

    func execute(_ context: Context) async throws {
        let config = try ConfigLoader.load(path: global.config, context: context)
        if let exportKey {
            let keyID = try LinuxPackageBuilder.exportKey(
                config: config, to: context.resolve(exportKey), context: context)
            context.console.info(
                "wrote \(exportKey): OpenPGP public key \(keyID); users run `rpm --import \(exportKey)`")
            return
        }
        guard let tag else { return }
        let selected = try TargetResolver.select(try TargetResolver.resolveAll(config), globs: targets)
        let output = out.map { context.resolve($0) } ?? config.distDirectory
        let packaged = try LinuxPackageBuilder.selection(config: config, targets: selected, formats: formats)
        let identity = try await ReleaseIdentity.resolve(
            tag: tag, config: packaged.config, context: context, .packaging)
        let packages = try await LinuxPackageBuilder.package(
            config: packaged.config, identity: identity, targets: packaged.targets, outputDirectory: output,
            binaryRoot: artifacts.map { context.resolve($0) }, context: context)
        if global.json { try emitJSON(packages.map(\.fileReport), context) }
    }
}
