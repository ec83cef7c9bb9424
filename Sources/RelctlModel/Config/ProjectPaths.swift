import Foundation
import RelctlBasics

/// The one place that turns a path written in `relctl.toml` into a location: absolute paths as
/// written, anything else relative to the project root (the folder holding the config). Every
/// command resolves config paths here, so `check` and the command that uses a path never
/// disagree about where it is.
extension RelctlConfig {
    /// The release output folder of the project.
    package static let distFolderName = "dist"

    /// `dist/` in the project.
    public var distDirectory: URL { root.appendingPathComponent(Self.distFolderName) }

    /// A config path resolved against the project root (absolute paths kept).
    package func resolve(_ path: String) -> URL { Self.resolve(path, root: root) }

    /// A config path resolved against `root`, for code that holds the root but not the config.
    package static func resolve(_ path: String, root: URL) -> URL {
        AbsolutePath(path, relativeTo: AbsolutePath(root)).url
    }
}
