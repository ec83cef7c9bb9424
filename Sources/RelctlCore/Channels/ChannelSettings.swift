import Foundation

/// `[[chart]]`, `[nix]`, `[homebrew]`, `[scoop]` and `[[channel]]`: where users install from.
/// Each configured entry is one channel of the release (see `ChannelRegistry`).
public struct ChannelSettings: Sendable {
    /// `[[chart]]`: a Helm chart folder, packaged as `dist/{chart}-{version}.tgz`.
    public struct Chart: Sendable, Equatable {
        /// The folder holding `Chart.yaml`, relative to the project root.
        var path: String
        /// `oci://host/path`: where `--push` sends the chart; nil keeps it in dist/ only.
        var repository: ImageReference?
        var line: Int?
    }

    /// `[homebrew]` / `[scoop]`: a git repository the generated file is committed to.
    public struct Repository: Sendable, Equatable {
        /// `OWNER/NAME` on GitHub, or any URL or path git clones.
        var location: String
        /// One-line description of the project (default: the project name).
        var description: String?
        var homepage: String?
        /// SPDX identifier.
        var license: String?

        /// The URL git clones and pushes.
        var gitURL: String {
            let isSlug =
                location.split(separator: "/").count == 2 && !location.contains(":") && !location.hasPrefix("/")
                && !location.hasPrefix(".")
            return isSlug ? "https://github.com/\(location).git" : location
        }
    }

    /// `[[channel]]`: a plugin channel, run as `command` (or `relctl-channel-NAME` on PATH).
    public struct Plugin: Sendable, Equatable {
        var name: String
        /// The argv to run; nil means `relctl-channel-NAME` found on PATH.
        var command: [String]?
        var line: Int?
    }

    var charts: [Chart] = []
    var nix = false
    var homebrew: Repository?
    var scoop: Repository?
    var plugins: [Plugin] = []

    init() {}

    /// True when no channel is configured.
    var isEmpty: Bool { charts.isEmpty && !nix && homebrew == nil && scoop == nil && plugins.isEmpty }
}
