import ArgumentParser
import RelctlBasics
import RelctlProject
import RelctlRelease

struct Init: RelctlCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a starter relctl.toml from the manifests found here; never overwrites."
    )

    @OptionGroup var global: GlobalOptions

    func execute(_ context: Context) async throws {
        let (_, detected, warnings) = try await StarterConfig.write(path: global.config, context: context)
        for warning in warnings { context.console.warning(warning) }
        let found = detected.isEmpty ? "no manifest found" : "found " + detected.joined(separator: ", ")
        // The path as the user gave it: with --config the file is not ./relctl.toml.
        context.console.info(
            "wrote \(global.config ?? ConfigLoader.defaultFileName) (\(found)); review it, then run `relctl check`")
    }
}
