import Foundation
import RelctlBasics

/// `OWNER/REPO` of a GitHub (or GitHub Enterprise Server) repository.
package struct GitHubRepository: Sendable, Equatable, CustomStringConvertible {
    package var owner: String
    package var name: String

    package init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ Self.isValidPart($0) }) else { return nil }
        owner = String(parts[0])
        name = String(parts[1])
    }

    package var description: String { "\(owner)/\(name)" }

    /// The repository a git remote URL points at, for any host (GHES included): `https://host/o/r(.git)`,
    /// `ssh://git@host[:port]/o/r(.git)`, `git@host:o/r(.git)`. Nil for local paths.
    package init?(remoteURL raw: String) {
        var url = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        let path: Substring
        if let scheme = url.range(of: "://") {
            url = String(url[scheme.upperBound...])
            guard let slash = url.firstIndex(of: "/"), url.startIndex != slash else { return nil }
            path = url[url.index(after: slash)...]
        } else if let colon = url.firstIndex(of: ":"), !url[..<colon].contains("/"), colon != url.startIndex {
            path = url[url.index(after: colon)...]
        } else {
            return nil
        }
        var parts = path.split(separator: "/").map(String.init)
        guard parts.count >= 2, var last = parts.popLast() else { return nil }
        if last.hasSuffix(".git") { last.removeLast(4) }
        guard let owner = parts.last, Self.isValidPart(Substring(owner)), Self.isValidPart(Substring(last)) else {
            return nil
        }
        self.owner = owner
        self.name = last
    }

    /// GitHub names: letters, digits, `-`, `_`, `.`; never `.` or `..` alone.
    private static func isValidPart(_ part: Substring) -> Bool {
        !part.isEmpty && part != "." && part != ".."
            && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
    }

    /// `[publish] github`, else `GITHUB_REPOSITORY` (set by GitHub Actions), else the remote's URL.
    package static func resolve(
        configured: String?, environment: [String: String], remoteURL: String?, remoteName: String
    ) throws -> GitHubRepository {
        let named = try ForgeSetting.first(
            [
                (configured, "relctl.toml [publish] github"),
                (ForgeSetting.set(environment["GITHUB_REPOSITORY"]), "GITHUB_REPOSITORY"),
            ],
            { GitHubRepository($0) }, bad: PublishError.badRepository(value:source:))
        if let named { return named }
        if let remoteURL, let repository = GitHubRepository(remoteURL: remoteURL) { return repository }
        let why =
            remoteURL.map { "the remote `\(remoteName)` (\($0)) is not a GitHub URL" }
            ?? "there is no remote `\(remoteName)`"
        throw PublishError.noRepository(
            hint: "\(why); set `github = \"OWNER/REPO\"` in relctl.toml's [publish] section or GITHUB_REPOSITORY")
    }
}

/// Where a forge's repository or project is named: the first place that names it wins.
package enum ForgeSetting {
    /// The value of the first of `places` that holds one, read by `parse`; a value it refuses is
    /// `bad(value, source)`, naming where it came from. Nil when no place holds a value.
    package static func first<T>(
        _ places: [(value: String?, source: String)], _ parse: (String) -> T?,
        bad: (_ value: String, _ source: String) -> PublishError
    ) throws -> T? {
        for case let (value?, source) in places {
            guard let parsed = parse(value) else { throw bad(value, source) }
            return parsed
        }
        return nil
    }

    /// An environment variable's value, nil when it is unset or empty.
    package static func set(_ value: String?) -> String? { value.flatMap { $0.isEmpty ? nil : $0 } }
}
