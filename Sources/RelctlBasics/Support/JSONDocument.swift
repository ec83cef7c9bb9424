import Foundation

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
