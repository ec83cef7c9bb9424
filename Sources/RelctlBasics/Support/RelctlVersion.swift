/// relctl's own version: the source of truth its relctl.toml checks tags against (kind `swift`).
public enum RelctlVersion {
    public static let version = "0.1.0"
    /// Where relctl's source lives: the default CI setup fetches it, provenance names its builder
    /// and build type by it.
    package static let repository = "https://github.com/relctl/relctl"
}
