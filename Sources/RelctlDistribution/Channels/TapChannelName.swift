import RelctlBasics
import RelctlModel

/// The name of a formula or Scoop manifest: `[homebrew] name` / `[scoop] name`, else the project
/// name. It becomes a file name in the tap or bucket and, for Homebrew, a Ruby class name, so it
/// is checked against the characters Homebrew allows in formula names before either use.
package enum TapChannelName {
    package static let rule =
        "must be a formula name: ASCII letters, digits and `+ . _ @ -`, starting with a letter or digit, at most 128"

    package static func isValid(_ name: String) -> Bool {
        (try? RubyEmitter.className(formula: name)) != nil
    }

    /// The configured name, or the project's; a project name that is no formula name is refused
    /// (exit 2) with the key to set instead.
    package static func name(_ settings: ChannelSettings.Repository, project: String, table: String) throws -> String {
        let name = settings.name ?? project
        let what =
            settings.name == nil
            ? "the \(table) name (the project name; set `name` in [\(table)] to choose one)" : "[\(table)] `name`"
        _ = try RubyEmitter.className(formula: name, what: what)
        return name
    }
}
