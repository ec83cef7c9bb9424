import Foundation

/// One `[[target]]` entry as written; `TargetResolver` turns it into a `Target` with defaults.
struct TargetSettings: Sendable {
    var triple: String
    var runner: String?
    var format: String?
    var links: LinksPolicy?
    var command: Template?
    var binaryDirectory: Template?
    var line: Int?

    init(
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
