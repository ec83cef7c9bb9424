import Foundation
import RelctlBasics

/// A GitLab project by its full path (`group/subgroup/project`), the form the REST API accepts
/// URL-encoded in place of the numeric id (docs.gitlab.com, "REST API": "Namespaced paths").
package struct GitLabProject: Sendable, Equatable, CustomStringConvertible {
    package var path: String

    /// At least a namespace and a name; each part as GitLab allows in a path (letters, digits,
    /// `_`, `-`, `.`; not starting with `-`, never `.` or `..`).
    package init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 2,
            parts.allSatisfy({ part in
                !part.isEmpty && part != "." && part != ".." && !part.hasPrefix("-")
                    && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
            })
        else { return nil }
        path = trimmed
    }

    package var description: String { path }

    /// The path as the `:id` of an API URL: every `/` as `%2F`.
    package var encoded: String { path.replacingOccurrences(of: "/", with: "%2F") }

    /// `[publish] gitlab`, else `CI_PROJECT_PATH` (set in every GitLab CI job).
    package static func resolve(configured: String?, environment: [String: String]) throws -> GitLabProject {
        if let configured {
            guard let project = GitLabProject(configured) else {
                throw PublishError.badProjectPath(value: configured, source: "relctl.toml [publish] gitlab")
            }
            return project
        }
        if let fromCI = environment["CI_PROJECT_PATH"], !fromCI.isEmpty {
            guard let project = GitLabProject(fromCI) else {
                throw PublishError.badProjectPath(value: fromCI, source: "CI_PROJECT_PATH")
            }
            return project
        }
        throw PublishError.noProject(
            forge: "GitLab",
            hint: "set `gitlab = \"GROUP/PROJECT\"` in relctl.toml's [publish] section or CI_PROJECT_PATH")
    }
}
