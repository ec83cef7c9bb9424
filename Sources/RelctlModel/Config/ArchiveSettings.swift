import Foundation
import RelctlBasics

package struct ArchiveSettings: Sendable {
    /// The file stem and the single top-level folder.
    package var name: Template = Template("{project}-{tag}-{target}")
    package var files: [PathMapping] = []
    package var trees: [PathMapping] = []
    package var setupEnv: Bool = true
    /// false: the archive's entries sit at its root (GoReleaser's default), with no folder named
    /// after the archive around them.
    package var topFolder: Bool = true
    package var symlinks: [SymlinkRule] = []
    /// A shell command run once per archive in an empty staging folder (cwd), with RELCTL_TARGET,
    /// RELCTL_VERSION… set; every file it writes there is added at the archive's root.
    package var stage: Template?
    /// Compression level (format's default when nil): gzip/zip 1-9, xz 0-9, zstd 1-19.
    package var compressionLevel: Int?
    /// A `compression-level` outside 0-19 as written. Not a load error: `check` and `package`
    /// report it with every other problem they find, so it hides none of them.
    package var invalidCompressionLevel: Int?
    /// Glob patterns (relative to a tree's root) left out of trees.
    package var exclude: [String] = []
    package init() {}
}

/// `[[archive.symlink]]`: a link created per binary (`{binary}` expands to each binary name),
/// or once when neither side names `{binary}`.
package struct SymlinkRule: Sendable, Equatable {
    package var path: Template
    package var to: Template
    package init(path: Template, to: Template) {
        self.path = path
        self.to = to
    }

    /// True when the rule makes one link per binary.
    package var mentionsBinary: Bool { path.placeholders.contains("binary") || to.placeholders.contains("binary") }
}

/// A file or tree copied into the archive: `from` in the project, `to` inside the archive folder.
package struct PathMapping: Sendable, Equatable {
    package var from: Template
    package var to: Template
    package init(from: Template, to: Template) {
        self.from = from
        self.to = to
    }
}

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
    /// This target's own archive name (`swiftformat_linux`), instead of `[archive] name`.
    package var archiveName: Template?
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
