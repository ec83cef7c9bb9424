import ArgumentParser
import RelctlCore

struct Init: RelctlCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a starter relctl.toml from the manifests found here; never overwrites."
    )

    @OptionGroup var global: GlobalOptions

    func execute(_ context: Context) async throws {
        let (url, detected) = try StarterConfig.write(path: global.config, context: context)
        let found = detected.isEmpty ? "no manifest found" : "found " + detected.joined(separator: ", ")
        context.console.info("wrote \(url.lastPathComponent) (\(found)); review it, then run `relctl check`")
    }
}
