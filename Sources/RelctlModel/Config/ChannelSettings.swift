import Foundation
import RelctlBasics

/// `[[chart]]`, `[nix]`, `[homebrew]`, `[scoop]` and `[[channel]]`: where users install from.
/// Each configured entry is one channel of the release (see `ChannelRegistry`).
public struct ChannelSettings: Sendable {
    /// `[[chart]]`: a Helm chart folder, packaged as `dist/{chart}-{version}.tgz`.
    public struct Chart: Sendable, Equatable {
        /// The folder holding `Chart.yaml`, relative to the project root.
        package var path: String
        /// `oci://host/path`: where `--push` sends the chart; nil keeps it in dist/ only.
        package var repository: ImageReference?
        package var line: Int?

        package init(path: String, repository: ImageReference? = nil, line: Int? = nil) {
            self.path = path
            self.repository = repository
            self.line = line
        }
    }

    /// `[homebrew]` / `[scoop]`: a git repository the generated file is committed to.
    public struct Repository: Sendable, Equatable {
        /// `OWNER/NAME` on GitHub, or any URL or path git clones.
        package var location: String
        /// One-line description of the project (default: the project name).
        package var description: String?
        package var homepage: String?
        /// SPDX identifier.
        package var license: String?
        /// The formula or manifest name when it differs from the project's (`charm-gum` for a
        /// project named `gum`): the file is `Formula/{name}.rb` / `bucket/{name}.json`.
        package var name: String? = nil

        /// The URL git clones and pushes.
        package var gitURL: String {
            let isSlug =
                location.split(separator: "/").count == 2 && !location.contains(":") && !location.hasPrefix("/")
                && !location.hasPrefix(".")
            return isSlug ? "https://github.com/\(location).git" : location
        }

        package init(
            location: String, description: String? = nil, homepage: String? = nil, license: String? = nil,
            name: String? = nil
        ) {
            self.location = location
            self.description = description
            self.homepage = homepage
            self.license = license
            self.name = name
        }
    }

    /// `[[channel]]`: a plugin channel, run as `command` (or `relctl-channel-NAME` on PATH).
    public struct Plugin: Sendable, Equatable {
        package var name: String
        /// The argv to run; nil means `relctl-channel-NAME` found on PATH.
        package var command: [String]?
        package var line: Int?
        /// The table's other keys, for a channel an extension added (`RelctlExtensions.addChannel`).
        package var settings: [String: String] = [:]

        package init(name: String, command: [String]? = nil, line: Int? = nil, settings: [String: String] = [:]) {
            self.name = name
            self.command = command
            self.line = line
            self.settings = settings
        }
    }

    package var charts: [Chart] = []
    package var nix = false
    package var homebrew: Repository?
    package var scoop: Repository?
    /// `[aur] repository`: the AUR (or any) git repository of `{project}-bin`.
    package var aur: Repository?
    /// `[winget]`: the package identifier and the winget-pkgs fork the manifests are committed to.
    package var winget: Winget?

    public struct Winget: Sendable, Equatable {
        package var identifier: String
        package var repository: Repository

        package init(identifier: String, repository: Repository) {
            self.identifier = identifier
            self.repository = repository
        }
    }
    package var plugins: [Plugin] = []

    package init() {}

    /// True when no channel is configured.
    package var isEmpty: Bool {
        charts.isEmpty && !nix && homebrew == nil && scoop == nil && aur == nil && winget == nil && plugins.isEmpty
    }
}
