import RelctlCommands
import RelctlProject

// Registered before the first command runs: `[[version]] path = "gradle.properties"` now works
// in relctl.toml without a `kind`, and `validate-tag`, `bump` and `release` read it; and
// `[publish] mirror = "/srv/releases"` makes `publish` (and `release --publish`) copy the
// release's files into that folder, after any forge [publish] names; and `[[channel]] name =
// "update-feed"` writes a self-update feed next to the archives (`relctl channel update-feed`, and
// every `relctl release`).
var extensions = RelctlExtensions()
extensions.addManifestReader(GradlePropertiesReader(), kind: "gradle", fileNames: ["gradle.properties"])
extensions.addPublisher(id: MirrorPublisher.id) { _ in MirrorPublisher() }
extensions.addChannel(id: UpdateFeedChannel.id) { settings in try UpdateFeedChannel(settings: settings) }
await RelctlCLI.main(extensions: extensions)
