/// relctl's own version: the source of truth its relctl.toml checks tags against (kind `swift`).
public enum RelctlVersion {
    public static let version = "0.1.0"
}
