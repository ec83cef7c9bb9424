import Foundation
import RelctlBasics

/// `[npm]`: the binaries as npm packages (issue 61). One package per target
/// (`{package}-{os}-{cpu}`, npm's words) holding its binary, and the main package `package`
/// with `optionalDependencies` on them and a JavaScript launcher as its `bin`.
package struct NpmSettings: Sendable, Equatable {
    /// The registry relctl publishes to when none is configured.
    package static let defaultRegistry = "https://registry.npmjs.org/"

    /// `@acme/velostream` or `velostream`: checked against npm's name rules when the config loads.
    package var package: String
    /// Where `publish` sends the packages: an http(s) URL, plain http only to this machine.
    package var registry: String = NpmSettings.defaultRegistry
    /// The line of `[npm]`, for messages.
    package var line: Int?

    package init(package: String, registry: String = NpmSettings.defaultRegistry, line: Int? = nil) {
        self.package = package
        self.registry = registry
        self.line = line
    }

    /// The registry without its trailing slashes, as request URLs are built on it.
    package var registryBase: String {
        var base = registry
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }

    /// Why `name` is not a name npm accepts for a new package (its `validate-npm-package-name`
    /// rules), or nil: at most 214 characters, lowercase, URL-safe, not starting with `.` or `_`;
    /// `@scope/name` with both parts so.
    package static func problem(inName name: String) -> String? {
        guard !name.isEmpty else { return "is empty" }
        guard name.utf8.count <= 214 - 16 else {
            return "is longer than npm allows once `-linux-x64-musl` is added (214 characters at most)"
        }
        var parts = [Substring(name)]
        if name.hasPrefix("@") {
            let scoped = name.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
            guard scoped.count == 2 else { return "must be `@scope/name` or `name`" }
            parts = scoped
        }
        for part in parts {
            guard !part.isEmpty else { return "must be `@scope/name` or `name`" }
            guard !part.hasPrefix("."), !part.hasPrefix("_") else { return "must not start with `.` or `_`" }
            guard part.allSatisfy({ ($0.isASCII && ($0.isLowercase || $0.isNumber)) || "-._~".contains($0) }) else {
                return "must be lowercase letters, digits, `-`, `.`, `_` or `~` (npm's rules)"
            }
        }
        return nil
    }
}
