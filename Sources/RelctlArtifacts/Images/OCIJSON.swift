import Foundation
import RelctlBasics

/// The canonical bytes relctl writes for every JSON blob: sorted keys, no whitespace, slashes
/// unescaped. The digest is taken over exactly these bytes, so they must never vary.
package enum OCIJSON {
    package static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    package static func decode<T: Decodable>(_ type: T.Type, from data: Data, what: String) throws -> T {
        do { return try JSONDecoder().decode(type, from: data) } catch {
            throw ImageError.badContent(what: what, reason: "\(error)")
        }
    }
}
