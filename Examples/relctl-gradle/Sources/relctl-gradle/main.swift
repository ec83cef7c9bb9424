import RelctlCommands
import RelctlCore

// Registered before the first command runs: `[[version]] path = "gradle.properties"` now works
// in relctl.toml without a `kind`, and `validate-tag`, `bump` and `release` read it.
var extensions = RelctlExtensions()
extensions.addManifestReader(GradlePropertiesReader(), kind: "gradle", fileNames: ["gradle.properties"])
await RelctlCLI.main(extensions: extensions)
