import Foundation
import RelctlBasics

/// The JSON document a plugin channel prints on stdout: the files it wrote into dist (relative to
/// it; each becomes a release asset listed in SHA256SUMS) and the URLs it published to.
package struct ChannelAnswer: Sendable, Decodable, Equatable {
    package var files: [String]
    package var published: [String]

    package enum CodingKeys: String, CodingKey { case files, published }

    package init(files: [String], published: [String]) {
        self.files = files
        self.published = published
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        files = try container.decodeIfPresent([String].self, forKey: .files) ?? []
        published = try container.decodeIfPresent([String].self, forKey: .published) ?? []
    }

    /// Parses stdout; an empty answer or anything but one JSON object is refused with the reason.
    package static func parse(_ data: Data, channel: String) throws -> ChannelAnswer {
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("{") else {
            throw ChannelError.pluginBadAnswer(
                name: channel,
                reason: text.isEmpty
                    ? "stdout was empty (print {\"files\": [], \"published\": []} when there is nothing)"
                    : "stdout does not start with `{`: \(text.prefix(80))")
        }
        do { return try JSONDecoder().decode(ChannelAnswer.self, from: Data(text.utf8)) } catch {
            throw ChannelError.pluginBadAnswer(name: channel, reason: Self.describe(error))
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "`\(path)` must be an array of strings"
        case DecodingError.dataCorrupted(let context):
            return "not valid JSON (\(context.debugDescription))"
        default:
            return "\(error)"
        }
    }
}
