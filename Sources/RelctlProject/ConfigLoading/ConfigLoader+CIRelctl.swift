import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// `[ci] relctl = "source" | "release"` and `[ci] relctl-minisign-key`: how the default
/// "Install relctl" step gets relctl (RelctlInstallMode).
extension ConfigLoader {
    /// An unknown mode, a key that is not a minisign public key, or either beside a `[ci] setup`
    /// that replaces the default step is reported at its key (exit 2).
    package static func readRelctlInstall(_ table: TableReader, into ci: inout CISettings) {
        if let mode = table.string("relctl") {
            if let known = RelctlInstallMode(rawValue: mode) {
                ci.relctl = known
            } else {
                let shown = WorkflowValue.problem(in: mode) == nil ? mode : QuotedString.basic(mode)
                table.report("relctl", "`ci.relctl`: " + RelctlInstallMode.unknown(shown))
            }
        }
        if let key = table.string("relctl-minisign-key") {
            if (try? MinisignPublicKey(text: key, source: "ci.relctl-minisign-key")) == nil || key.contains("\n") {
                table.report(
                    "relctl-minisign-key",
                    "`ci.relctl-minisign-key` is not a minisign public key: give the base64 line of relctl's minisign .pub file (`RW…`, as `minisign -P` takes it)"
                )
            } else if ci.relctl != .release {
                table.report(
                    "relctl-minisign-key",
                    "`ci.relctl-minisign-key` checks the relctl archive the workflow downloads; it needs `relctl = \"release\"` in [ci]"
                )
            } else {
                ci.relctlMinisignKey = key
            }
        }
        if table.values["relctl"] != nil, !ci.usesDefaultSetup {
            table.report(
                "relctl",
                "`ci.relctl` chooses how the default \"Install relctl\" step works, and `ci.setup` replaces that step; keep one of them"
            )
        }
    }
}
