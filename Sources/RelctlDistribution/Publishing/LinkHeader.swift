import Foundation
import RelctlBasics

/// RFC 8288 `Link` header, as GitHub paginates with it: `<url>; rel="next", <url>; rel="last"`.
package enum LinkHeader {
    /// The URL with the given relation, or nil.
    package static func url(_ header: String?, rel: String) -> URL? {
        guard let header else { return nil }
        for link in header.split(separator: ",") {
            let parts = link.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let target = parts.first, target.hasPrefix("<"), target.hasSuffix(">") else { continue }
            let relations = parts.dropFirst().compactMap { part -> [String]? in
                let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2, pair[0].lowercased() == "rel" else { return nil }
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).split(separator: " ").map(
                    String.init)
            }.flatMap { $0 }
            if relations.contains(rel) { return URL(string: String(target.dropFirst().dropLast())) }
        }
        return nil
    }
}
