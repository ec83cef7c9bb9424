import Foundation
import RelctlBasics

/// A `WWW-Authenticate` challenge (RFC 7235): `Basic realm="…"` or
/// `Bearer realm="…",service="…",scope="…"`.
package struct AuthChallenge: Sendable, Equatable {
    package var scheme: String
    package var parameters: [String: String]

    package var realm: String? { parameters["realm"] }

    /// Nil when the header is missing or not a challenge.
    package init?(header: String?) {
        guard let header = header?.trimmingCharacters(in: .whitespaces), !header.isEmpty else { return nil }
        let scheme = header.prefix { !$0.isWhitespace }
        self.scheme = scheme.lowercased()
        var parameters: [String: String] = [:]
        var rest = header.dropFirst(scheme.count)[...]
        while true {
            rest = rest.drop { $0.isWhitespace || $0 == "," }
            guard let equals = rest.firstIndex(of: "=") else { break }
            let key = rest[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            rest = rest[rest.index(after: equals)...]
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                var escaped = false
                while let character = rest.first {
                    rest = rest.dropFirst()
                    if escaped {
                        value.append(character); escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        break
                    } else {
                        value.append(character)
                    }
                }
            } else {
                let end = rest.firstIndex(of: ",") ?? rest.endIndex
                value = rest[..<end].trimmingCharacters(in: .whitespaces)
                rest = rest[end...]
            }
            parameters[key] = value
        }
        self.parameters = parameters
    }
}
