import Foundation
import RelctlBasics

/// `Cargo.toml`: `[package] version`, or `version.workspace = true` (either spelling) resolved
/// from the workspace root's `[workspace.package] version`; a virtual root manifest reads that directly.
package struct CargoManifestReader: ManifestReader {
    package var comparison: VersionComparison { .semver }
    package init() {}

    package func readVersion(at url: URL, source: VersionSource, displayPath: String) throws -> ManifestVersion {
        let document = try TOMLDocument(file: ProjectFile.open(location: url, shown: displayPath))
        if let package = document.root["package"]?.table, let version = package["version"] {
            if let text = version.string {
                return ManifestVersion(
                    text: text, foundIn: displayPath,
                    line: ManifestText.tomlVersionLine(in: document.text, table: "package"))
            }
            if version.table?["workspace"]?.bool == true {
                // A root package inheriting from its own workspace (wasmtime's Cargo.toml is both).
                if document.root["workspace"]?.table != nil {
                    guard let text = document.root["workspace"]?.table?["package"]?.table?["version"]?.string else {
                        throw ManifestError.noVersion(
                            path: displayPath,
                            hint:
                                "it inherits `version.workspace = true` from its own [workspace], which has no [workspace.package] version"
                        )
                    }
                    return ManifestVersion(
                        text: text, foundIn: displayPath,
                        line: ManifestText.tomlVersionLine(in: document.text, table: "workspace.package"))
                }
                return try inherited(from: url, displayPath: displayPath)
            }
            throw ManifestError.invalid(
                path: displayPath, line: document.locator.line(of: "package.version"),
                reason: "`package.version` must be a string or `{ workspace = true }`")
        }
        if let text = document.root["workspace"]?.table?["package"]?.table?["version"]?.string {
            return ManifestVersion(
                text: text, foundIn: displayPath,
                line: ManifestText.tomlVersionLine(in: document.text, table: "workspace.package"))
        }
        throw ManifestError.noVersion(
            path: displayPath, hint: "expected `version` under [package] or [workspace.package]")
    }

    /// Walks up from the member's folder's parent to the first Cargo.toml with a `[workspace]` table.
    private func inherited(from member: URL, displayPath: String) throws -> ManifestVersion {
        var directory = member.deletingLastPathComponent().deletingLastPathComponent()
        while directory.path != "/" && !directory.path.isEmpty {
            let candidate = directory.appendingPathComponent("Cargo.toml")
            if FileSystem.exists(candidate) {
                let shown = relativePath(candidate, from: member, display: displayPath)
                let document = try TOMLDocument(file: ProjectFile.open(location: candidate, shown: shown))
                if let workspace = document.root["workspace"]?.table {
                    guard let text = workspace["package"]?.table?["version"]?.string else {
                        throw ManifestError.noVersion(
                            path: shown,
                            hint:
                                "\(displayPath) inherits `version.workspace = true`, but this workspace root has no [workspace.package] version"
                        )
                    }
                    return ManifestVersion(
                        text: text, foundIn: shown,
                        line: ManifestText.tomlVersionLine(in: document.text, table: "workspace.package"))
                }
            }
            directory = directory.deletingLastPathComponent()
        }
        throw ManifestError.noVersion(
            path: displayPath,
            hint: "it inherits `version.workspace = true`, but no parent Cargo.toml has a [workspace] table")
    }

    private func relativePath(_ url: URL, from member: URL, display: String) -> String {
        // Express the root's path the way the member was named: `crates/a/Cargo.toml` → `Cargo.toml`.
        let memberDir = member.deletingLastPathComponent().standardizedFileURL.path
        let displayDir = (display as NSString).deletingLastPathComponent
        let root = url.deletingLastPathComponent().standardizedFileURL.path
        guard memberDir.hasPrefix(root) else { return url.path }
        let depth = memberDir.dropFirst(root.count).split(separator: "/").count
        var parts = displayDir.split(separator: "/").map(String.init)
        guard parts.count >= depth else { return url.path }
        parts.removeLast(depth)
        return (parts + ["Cargo.toml"]).joined(separator: "/")
    }
}
