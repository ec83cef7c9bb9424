import Foundation
import RelctlBasics

/// Web links for a repository hosted on GitHub or GitLab, derived from the `origin` URL
/// (https, `ssh://` and scp-like `git@host:owner/repo.git` forms). Credentials are never kept.
package struct RepositoryLinks: Sendable, Equatable {
    package enum Host: String, Sendable { case github, gitlab }

    package var host: Host
    /// `https://github.com/owner/repo` (no trailing slash, no `.git`).
    package var baseURL: String

    package init(host: Host, baseURL: String) {
        self.host = host
        self.baseURL = baseURL
    }

    /// Nil when the URL is not a recognisable GitHub or GitLab remote (local paths, other hosts).
    package init?(remoteURL raw: String) {
        var url = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        var hostName: String
        var path: String
        if let scheme = url.range(of: "://") {
            url = String(url[scheme.upperBound...])
            guard let slash = url.firstIndex(of: "/") else { return nil }
            hostName = String(url[..<slash])
            path = String(url[url.index(after: slash)...])
            // Drop `user:token@` so a credential in the remote never reaches the notes.
            if let at = hostName.lastIndex(of: "@") { hostName = String(hostName[hostName.index(after: at)...]) }
            if let colon = hostName.firstIndex(of: ":") { hostName = String(hostName[..<colon]) }
        } else if let colon = url.firstIndex(of: ":"), !url[..<colon].contains("/") {
            hostName = String(url[..<colon])
            if let at = hostName.lastIndex(of: "@") { hostName = String(hostName[hostName.index(after: at)...]) }
            path = String(url[url.index(after: colon)...])
        } else {
            return nil
        }
        hostName = hostName.lowercased()
        while path.hasSuffix("/") { path.removeLast() }
        if path.hasSuffix(".git") { path.removeLast(4) }
        while path.hasPrefix("/") { path.removeFirst() }
        guard path.split(separator: "/").count >= 2 else { return nil }
        if hostName == "github.com" || hostName == "www.github.com" {
            host = .github
            hostName = "github.com"
        } else if hostName.contains("gitlab") {
            host = .gitlab
        } else {
            return nil
        }
        baseURL = "https://\(hostName)/\(path)"
    }

    private var separator: String { host == .gitlab ? "/-" : "" }

    package func commitURL(_ hash: String) -> String { "\(baseURL)\(separator)/commit/\(hash)" }

    package func compareURL(from: String, to: String) -> String { "\(baseURL)\(separator)/compare/\(from)...\(to)" }

    /// Where a release's uploaded asset is downloaded from.
    package func downloadURL(tag: String, file: String) -> String {
        switch host {
        case .github: return "\(baseURL)/releases/download/\(tag)/\(file)"
        case .gitlab: return "\(baseURL)/-/releases/\(tag)/downloads/\(file)"
        }
    }
}
