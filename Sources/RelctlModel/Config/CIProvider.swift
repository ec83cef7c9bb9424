import RelctlBasics

/// A CI service `relctl ci generate` writes a release pipeline for (`[ci] providers`, `--provider`).
/// Keyed by id like the other registries: an unknown id is refused with the known ones listed.
public enum CIProvider: String, Sendable, CaseIterable, Hashable {
    /// GitHub Actions: `[ci] workflow`, `.github/workflows/release.yml` by default.
    case github
    /// GitLab CI/CD: `.gitlab-ci.yml`, the file GitLab reads by default.
    case gitlab

    /// The ids, in the order `ci generate` writes the files.
    public static var ids: [String] { allCases.map(\.rawValue) }

    /// "unknown CI provider `x`; known providers: github, gitlab".
    package static func unknown(_ id: String) -> String {
        "unknown CI provider `\(id)`; known providers: \(ids.joined(separator: ", "))"
    }
}
