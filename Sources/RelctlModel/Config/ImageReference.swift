import Foundation
import RelctlBasics

/// A registry reference (`ghcr.io/acme/velostream`, `localhost:5000/app@sha256:…`) split into the
/// parts the distribution API needs, with Docker's rules for short names (`alpine` is
/// `docker.io/library/alpine`).
public struct ImageReference: Sendable, Hashable, CustomStringConvertible {
    /// `host[:port]` as written (`docker.io` for short names).
    package var registry: String
    /// The repository path inside the registry (`acme/velostream`).
    package var repository: String
    package var tag: String?
    /// `sha256:<64 hex>`.
    package var digest: String?

    package init(registry: String, repository: String, tag: String? = nil, digest: String? = nil) {
        self.registry = registry
        self.repository = repository
        self.tag = tag
        self.digest = digest
    }

    /// Parses and checks a reference; the error text says what is wrong and how a valid one looks.
    package init(parsing text: String) throws {
        var rest = Substring(text)
        var digest: String?
        if let at = rest.firstIndex(of: "@") {
            let value = String(rest[rest.index(after: at)...])
            guard Self.isDigest(value) else {
                throw ImageReferenceError(text: text, problem: .digest(String(value)))
            }
            digest = value
            rest = rest[..<at]
        }
        var tag: String?
        if let colon = rest.lastIndex(of: ":"), !rest[rest.index(after: colon)...].contains("/") {
            let value = String(rest[rest.index(after: colon)...])
            // `localhost:5000/app` has its colon before a slash: that is a port, handled below.
            guard Self.isTag(value) else {
                throw ImageReferenceError(text: text, problem: .tag(String(value)))
            }
            tag = value
            rest = rest[..<colon]
        }
        var components = rest.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var registry = "docker.io"
        if components.count > 1, let first = components.first,
            first.contains(".") || first.contains(":") || first == "localhost"
        {
            registry = first
            components.removeFirst()
            guard Self.isHost(registry) else {
                throw ImageReferenceError(text: text, problem: .registry(String(registry)))
            }
        }
        guard !components.isEmpty, components != [""] else {
            throw ImageReferenceError(text: text, problem: .noRepository)
        }
        for component in components where !Self.isPathComponent(component) {
            if component.lowercased() != component, Self.isPathComponent(component.lowercased()) {
                throw ImageReferenceError(text: text, problem: .uppercase(String(component)))
            }
            throw ImageReferenceError(text: text, problem: .component(String(component)))
        }
        if registry == "docker.io", components.count == 1 { components.insert("library", at: 0) }
        let repository = components.joined(separator: "/")
        guard repository.utf8.count <= 255 else {
            throw ImageReferenceError(text: text, problem: .tooLong)
        }
        self.init(registry: registry, repository: repository, tag: tag, digest: digest)
    }

    /// `host/path` without tag or digest.
    package var name: String { "\(registry)/\(repository)" }

    public var description: String {
        name + (tag.map { ":" + $0 } ?? "") + (digest.map { "@" + $0 } ?? "")
    }

    /// The host serving the API (Docker Hub's API is not on `docker.io` itself).
    package var apiHost: String {
        registry == "docker.io" || registry == "index.docker.io" ? "registry-1.docker.io" : registry
    }

    /// Plain HTTP is allowed only for loopback registries, as Docker does.
    package var isLoopback: Bool {
        let host = registry.split(separator: ":").first.map(String.init) ?? registry
        if host == "localhost" || registry.hasPrefix("[::1]") { return true }
        let parts = host.split(separator: ".")
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    package static func isDigest(_ text: String) -> Bool {
        guard text.hasPrefix("sha256:") else { return false }
        let hex = text.dropFirst(7)
        return hex.count == 64 && hex.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
    }

    package static func isTag(_ text: String) -> Bool {
        guard let first = text.first, text.count <= 128, first != ".", first != "-" else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_.-".contains($0)) }
    }

    package static func isHost(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let host = parts.first, !host.isEmpty else { return false }
        if parts.count == 2 { guard let port = Int(parts[1]), (1...65535).contains(port) else { return false } }
        return host.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }

    /// Docker's path component grammar: `[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*`.
    package static func isPathComponent(_ text: String) -> Bool {
        text.range(of: #"^[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*$"#, options: .regularExpression) != nil
    }
}

/// An image reference relctl cannot use (`[[image]] repository`, `base`, a chart's `repository`):
/// bad input, naming the text and what is wrong with it.
package struct ImageReferenceError: RelctlError, Equatable {
    package enum Problem: Sendable, Equatable {
        case digest(String)
        case tag(String)
        case registry(String)
        case noRepository
        case uppercase(String)
        case component(String)
        case tooLong
    }

    package var text: String
    package var problem: Problem

    package init(text: String, problem: Problem) {
        self.text = text
        self.problem = problem
    }

    package var exitCode: RelctlExitCode { .badInput }
    package var diagnostics: [Diagnostic] { [Diagnostic("`\(text)`: \(problem.explanation)")] }
}

extension ImageReferenceError.Problem {
    package var explanation: String {
        switch self {
        case .digest(let value):
            return "the digest must be `sha256:` and 64 lowercase hex digits, found `\(value)`"
        case .tag(let value):
            return
                "`\(value)` is not a valid tag (letters, digits, `_`, `.`, `-`, at most 128, not starting with `.` or `-`)"
        case .registry(let registry):
            return
                "`\(registry)` is not a valid registry host (`host` or `host:port`, e.g. `ghcr.io` or `localhost:5000`)"
        case .noRepository:
            return "no repository path; write `host/path`, e.g. `ghcr.io/acme/velostream`"
        case .uppercase(let component):
            return "repository paths must be lowercase; write `\(component.lowercased())`"
        case .component(let component):
            return
                "`\(component)` is not a valid repository path component (lowercase letters and digits, separated by `.`, `_`, `__` or `-`)"
        case .tooLong:
            return "the repository path is longer than 255 characters"
        }
    }
}
