import Foundation
import RelctlBasics

/// One `[[target]]` entry as written; `TargetResolver` turns it into a `Target` with defaults.
package struct TargetSettings: Sendable {
    package var triple: String
    package var runner: String?
    package var format: String?
    /// Formats after the first when `format` is a list (`format = ["tar.gz", "zip"]`).
    package var extraFormats: [String] = []
    package var links: LinksPolicy?
    package var command: Template?
    package var binaryDirectory: Template?
    package var line: Int?

    package init(
        triple: String, runner: String? = nil, format: String? = nil, links: LinksPolicy? = nil,
        command: Template? = nil, binaryDirectory: Template? = nil, line: Int? = nil
    ) {
        self.triple = triple
        self.runner = runner
        self.format = format
        self.links = links
        self.command = command
        self.binaryDirectory = binaryDirectory
        self.line = line
    }
}

/// How symlinks are stored: `keep` as links (tar), `copy` as the target's bytes (zip for Windows).
package enum LinksPolicy: String, Sendable, CaseIterable, Codable {
    case keep, copy
}
