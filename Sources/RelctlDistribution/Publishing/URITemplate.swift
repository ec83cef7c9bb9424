import Foundation
import RelctlBasics

/// The part of RFC 6570 that GitHub's hypermedia URLs use: simple `{var}` and form-style
/// `{?a,b}` / `{&a,b}` expressions. Undefined variables are left out, as the RFC says.
package struct URITemplate: Sendable, Equatable {
    package var template: String

    package init(_ template: String) { self.template = template }

    package func expand(_ values: [String: String]) -> String {
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { result += rest[open...]; return result }
            var expression = rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            let op = expression.first.flatMap { "?&".contains($0) ? $0 : nil }
            if op != nil { expression = expression.dropFirst() }
            let names = expression.split(separator: ",").map(String.init)
            let defined = names.compactMap { name in values[name].map { (name, $0) } }
            guard !defined.isEmpty else { continue }
            switch op {
            case "?"?, "&"?:
                result += String(op ?? "?") + defined.map { "\($0.0)=\(Self.encode($0.1))" }.joined(separator: "&")
            default:
                result += defined.map { Self.encode($0.1) }.joined(separator: ",")
            }
        }
        return result + rest
    }

    /// Percent-encodes everything but RFC 3986's unreserved characters.
    package static func encode(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            let scalar = Character(Unicode.Scalar(byte))
            if byte < 0x80, scalar.isLetter || scalar.isNumber || "-._~".contains(scalar) {
                out.append(scalar)
            } else {
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}
