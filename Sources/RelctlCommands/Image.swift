import ArgumentParser
import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel
import RelctlProject
import RelctlRelease

struct Image: RelctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "image",
        abstract: "Build the [[image]] container images from the built binaries (no container engine), and push them.",
        discussion: """
            One image per Linux target and one OCI index over them, written as an OCI image layout in \
            dist/oci/<name>/. Layers are reproducible: the same binaries give the same digests anywhere. \
            --push uploads what the registry lacks, then the manifests, then the tags; run it again to \
            finish a failed push. Credentials come from $DOCKER_CONFIG/config.json (docker login). \
            Exit 1 when the registry refuses, 2 for bad config or missing binaries.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "The release tag, e.g. v1.2.0 (checked against the manifests first).") var tag: String
    @Option(
        name: .customLong("target"),
        help: ArgumentHelp(
            "A target triple or glob; repeat for several (default: every Linux target of each image).",
            valueName: "triple|glob"))
    var targets: [String] = []
    @Option(
        name: .customLong("image"),
        help: ArgumentHelp("Only the [[image]] with this name; repeat for several.", valueName: "name"))
    var names: [String] = []
    @Option(
        help: ArgumentHelp(
            "Output folder (default: dist/ in the project); layouts go to <dir>/oci/<name>/.", valueName: "dir"))
    var out: String?
    @Option(
        help: ArgumentHelp("Read prebuilt binaries from here instead of the project's binary-dir.", valueName: "dir"))
    var artifacts: String?
    @Flag(help: "Push each image to its repository: blobs and manifests first, tags last.") var push = false
    @Flag(
        name: .customLong("dry-run"),
        help: "With --push: build, check the registry accepts the credentials for push, and push nothing.") var dryRun =
        false

    func validate() throws {
        if dryRun && !push {
            throw ValidationError("--dry-run only makes sense with --push (without --push nothing is pushed anyway)")
        }
    }

    struct Output: Encodable {
        var images: [BuiltImage]
    }

    func execute(_ context: Context) async throws {
        let config = try ConfigLoader.load(path: global.config, context: context)
        let selected = try TargetResolver.select(try TargetResolver.resolveAll(config), globs: targets)
        let output = out.map { context.resolve($0) } ?? config.root.appendingPathComponent("dist")
        let builder = ImageBuilder(context: context)
        let pusher = ImagePusher(context: context)
        // Log in to each registry while the layers are compressed: the round trips cost no time.
        var connections: [String: ImagePusher.Connection] = [:]
        if push {
            for image in config.images where names.isEmpty || names.contains(image.name) {
                connections[image.name] = pusher.connect(to: image.repository, base: image.base)
            }
        }
        let identity = try await ReleaseIdentity.resolve(tag: tag, config: config, context: context, .image)
        let release = await builder.release(identity, config: config)
        var images = try await builder.build(
            config: config, release: release, targets: selected, outputDirectory: output,
            binaryRoot: artifacts.map { context.resolve($0) }, names: names,
            // With RELCTL_IMAGE_STREAM=1 each new layer goes to the registry while it is compressed;
            // a dry run sends nothing.
            uploads: dryRun || !ImagePusher.streamsLayers(context.environment) ? [:] : connections)
        if push {
            for index in images.indices {
                try await pusher.push(images[index], dryRun: dryRun, connection: connections[images[index].name])
                images[index].pushed = !dryRun
            }
        }
        if global.json { try emitJSON(Output(images: images), context) }
    }
}
