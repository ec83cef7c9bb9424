import Foundation

/// One finding for the user, optionally tied to a file and line: an error to act on, or a
/// warning that does not stop the command.
public struct Diagnostic: Sendable, Equatable, Codable, CustomStringConvertible {
    public enum Severity: String, Sendable, Codable {
        case error, warning
    }

    package var severity: Severity
    public var file: String?
    package var line: Int?
    public var message: String

    public init(file: String? = nil, line: Int? = nil, _ message: String, severity: Severity = .error) {
        self.severity = severity
        self.file = file
        self.line = line
        self.message = message
    }

    /// `FILE:LINE: message`, `FILE: message` or just `message`.
    public var description: String {
        switch (file, line) {
        case let (file?, line?): return "\(file):\(line): \(message)"
        case let (file?, nil): return "\(file): \(message)"
        default: return message
        }
    }

    /// The same finding at another severity.
    package func withSeverity(_ severity: Severity) -> Diagnostic {
        var copy = self
        copy.severity = severity
        return copy
    }
}

/// Every error relctl reports conforms to this: it knows its contract exit code and the
/// lines to print, one per problem.
public protocol RelctlError: Error, Sendable {
    var exitCode: RelctlExitCode { get }
    var diagnostics: [Diagnostic] { get }
}

extension RelctlError {
    /// The diagnostics joined, one per line, for tests and logs.
    public var message: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// The exit codes fixed by the product contract.
public enum RelctlExitCode: Int32, Sendable, Comparable {
    case success = 0
    /// The thing checked is wrong or a step failed (tag mismatch, checksum mismatch, build failed).
    case failure = 1
    /// Bad input: unreadable or invalid config, bad tag syntax, missing file, unknown id.
    case badInput = 2
    /// Command-line usage (ArgumentParser's own).
    case usage = 64

    public static func < (lhs: RelctlExitCode, rhs: RelctlExitCode) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Several problems collected before deciding to stop, in the swift-format style: the exit
/// code is the most severe among them.
public struct ProblemList: RelctlError, CustomStringConvertible, StorageFaultCarrying {
    public var exitCode: RelctlExitCode
    public var diagnostics: [Diagnostic]
    /// The first storage fault among the problems (`StorageFault`).
    package var storageFault: Int32?

    package init(exitCode: RelctlExitCode, diagnostics: [Diagnostic]) {
        self.exitCode = exitCode
        self.diagnostics = diagnostics
    }

    package init(_ errors: [any RelctlError]) {
        self.exitCode = errors.map(\.exitCode).max() ?? .failure
        self.diagnostics = errors.flatMap(\.diagnostics)
        self.storageFault = errors.lazy.compactMap { StorageFault.code(of: $0) }.first
    }

    public var description: String { message }
}

/// "Did you mean" suggestions for unknown keys, placeholders and ids.
package enum Suggestion {
    /// The candidate closest to `word` by edit distance, when it is close enough to be a
    /// plausible typo (two edits for short words, three for long ones).
    package static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let limit = max(2, min(3, word.count / 3 + 1))
        var best: (String, Int)?
        for candidate in candidates {
            let distance = editDistance(word.lowercased(), candidate.lowercased())
            if distance <= limit, best == nil || distance < best!.1 {
                best = (candidate, distance)
            }
        }
        return best?.0
    }

    /// ` (did you mean `x`?)`, or the empty string when nothing is close.
    package static func hint(for word: String, in candidates: some Sequence<String>) -> String {
        guard let match = closest(to: word, in: candidates) else { return "" }
        return " (did you mean `\(match)`?)"
    }

    /// Damerau-Levenshtein (optimal string alignment): a swapped pair counts as one edit, which
    /// is the commonest typo (`tag-fromat`).
    package static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}

/// A double-quoted string literal whose escapes both JSON and TOML basic strings accept
/// (`\"`, `\\`, `\n`, `\t`, `\r`, `\uXXXX` for other control characters): matrix output and
/// the starter relctl.toml both quote names that may hold anything.
package enum QuotedString {
    package static func basic(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: result += String(format: "\\u%04X", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
