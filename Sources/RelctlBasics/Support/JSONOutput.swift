import Foundation

/// The one way relctl prints JSON documents: stable key order, pretty, slashes unescaped.
package enum JSONOutput {
    package static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }

    /// Compact single-line JSON (for GitHub Actions outputs such as `matrix --format github`).
    package static func compact(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// A command's `--json` document with the warnings the command emitted added as a top-level
/// `warnings` array, so a script sees what the terminal saw. Documents that are not JSON
/// objects (arrays), or that list their warnings themselves, are printed as they are.
public enum JSONDocument {
    public static func render(_ value: some Encodable, warnings: [Diagnostic]) throws -> String {
        let plain = try JSONOutput.encode(value)
        guard !warnings.isEmpty, plain.hasPrefix("{"),
            let object = try? JSONSerialization.jsonObject(with: Data(plain.utf8)) as? [String: Any],
            object["warnings"] == nil
        else { return plain }
        return try JSONOutput.encode(WithWarnings(value: value, warnings: warnings.map(\.description)))
    }

    /// Encodes the value's own keys, then `warnings` into the same object.
    private struct WithWarnings<Value: Encodable>: Encodable {
        var value: Value
        var warnings: [String]

        enum Key: String, CodingKey { case warnings }

        func encode(to encoder: any Encoder) throws {
            try value.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(warnings, forKey: .warnings)
        }
    }
}

/// An optional that a synthesized `Encodable` writes as `null` when absent, instead of leaving
/// the key out: contract documents (`notes --json`, `bump --json`) always carry every key.
@propertyWrapper
public struct NullEncoded<Value: Encodable & Sendable>: Encodable, Sendable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}
