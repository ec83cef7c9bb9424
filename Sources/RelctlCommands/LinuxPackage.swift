import ArgumentParser
import Foundation
import RelctlBasics
import RelctlCore
import RelctlRelease

struct LinuxPackage: RelctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "linux-package",
        abstract: "Write the [[package]] .deb and .rpm files of the Linux targets into dist/.",
        discussion: """
            Native packages without an external packager: the built binaries in /usr/bin (0755 root:root), the \
            copyright (DEP-5) and, in the .deb, changelog.gz from the release notes under /usr/share/doc/{project}/. \
            Byte-identical on every run (SOURCE_DATE_EPOCH or the tagged commit's time). CI runs it after \
            `relctl build --target T` in each Linux job; `relctl checksum dist/` then lists the packages in SHA256SUMS. \
            Exit 2 when metadata, binaries or a [[package]] table are missing.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "The release tag, e.g. v1.2.0 (checked against the manifests first).") var tag: String
    @Option(
        name: .customLong("target"),
        help: ArgumentHelp("A target triple or glob; repeat for several (default: all Linux targets).", valueName: "triple|glob"))
    var targets: [String] = []
    @Option(
        name: .customLong("format"),
        help: ArgumentHelp("Only this [[package]] format (deb, rpm); repeat for several (default: all).", valueName: "id"))
    var formats: [String] = []
    @Option(help: ArgumentHelp("Output folder (default: dist/ in the project).", valueName: "dir")) var out: String?
    @Option(
        help: ArgumentHelp("Read prebuilt binaries from here instead of the project's binary-dir.", valueName: "dir"))
    var artifacts: String?

    func execute(_ context: Context) async throws {
        let config = try ConfigLoader.load(path: global.config, context: context)
        let selected = try TargetResolver.select(try TargetResolver.resolveAll(config), globs: targets)
        let output = out.map { context.resolve($0) } ?? config.distDirectory
        let packages = try await LinuxPackageBuilder.package(
            config: config, tag: tag, targets: selected, formats: formats, outputDirectory: output,
            binaryRoot: artifacts.map { context.resolve($0) }, context: context)
        if global.json { try emitJSON(packages, context) }
    }
}
