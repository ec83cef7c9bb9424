import Foundation
import RelctlBasics

/// One parser that reads untrusted text, its real seed inputs, and how to feed it one input.
package struct FuzzTarget: Sendable {
    /// What one input did.
    package enum Outcome: Sendable, Equatable {
        case parsed
        /// Refused with the parser's documented error.
        case refused
        /// The promise broken: a foreign error, or a message that does not name the file/value.
        case violation(String)
    }

    package var name: String
    package var seeds: [[UInt8]]
    /// Feeds one input to the parser's real entry point; `scratch` is a folder for parsers that read files.
    package var run: @Sendable (_ input: [UInt8], _ scratch: URL) async -> Outcome

    package init(name: String, seeds: [String], run: @escaping @Sendable (_ input: [UInt8], _ scratch: URL) async -> Outcome) {
        self.name = name
        self.seeds = seeds.map { Array($0.utf8) }
        self.run = run
    }

    /// The invariant for parsers that throw: parsed, or a `RelctlError` whose message is not empty
    /// and names `names` (the file, as the user would find it). Anything else is a violation.
    package static func judge(naming names: String? = nil, _ body: () async throws -> Void) async -> Outcome {
        do {
            try await body()
            return .parsed
        } catch let error as any RelctlError {
            let message = error.message
            if message.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                return .violation("\(type(of: error)) with an empty message")
            }
            if let names, !message.contains(names) {
                return .violation("\(type(of: error)) does not name `\(names)`: \(message.prefix(300))")
            }
            return .refused
        } catch {
            return .violation("threw \(type(of: error)), not a RelctlError: \(String(describing: error).prefix(300))")
        }
    }

    /// The invariant for JSON answers decoded with `JSONDecoder`: decoded, or a `DecodingError`
    /// (which the API clients turn into their "unexpected answer" error).
    package static func judgeDecoding(_ body: () throws -> Void) -> Outcome {
        do {
            try body()
            return .parsed
        } catch is DecodingError {
            return .refused
        } catch {
            return .violation("threw \(type(of: error)), not a DecodingError: \(String(describing: error).prefix(300))")
        }
    }
}
