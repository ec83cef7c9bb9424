import Foundation
import RelctlBasics
import RelctlModel

/// One `[[repo.pin]]`: a value in a repository's file (a CI workflow's `FFI_VERSION: "…"`) that
/// the train sets to the release's tag or version before tagging that repository, so the tagged
/// tree builds against the release it belongs to.
struct RepositoryPin: Sendable, Equatable, Encodable {
    /// The file, relative to the repository root.
    var path: String
    /// A regular expression with a named group `version`: the part that is replaced.
    var pattern: String
    /// `{tag}` or `{version}` (other text around them is kept: `"ffi-{version}"`).
    var value: String

    static let placeholders = ["tag", "version"]

    init(path: String, pattern: String, value: String) {
        self.path = path
        self.pattern = pattern
        self.value = value
    }

    /// What the pin is set to for this release.
    func resolvedValue(tag: String, version: String) -> String {
        value.replacingOccurrences(of: "{tag}", with: tag).replacingOccurrences(of: "{version}", with: version)
    }

    /// Why `pattern` cannot be used, or nil: it must compile and have a group named `version`.
    static func patternProblem(_ pattern: String) -> String? {
        let regex: Regex<AnyRegexOutput>
        do { regex = try Regex(pattern) } catch {
            return "`pattern` is not a valid regular expression (\(error)); e.g. 'FFI_VERSION: \"(?<version>[^\"]+)\"'"
        }
        if !regex.contains(captureNamed: "version") {
            return
                "`pattern` needs a named group `version` marking the part to replace, e.g. 'FFI_VERSION: \"(?<version>[^\"]+)\"'"
        }
        return nil
    }

    /// Why `value` cannot be used, or nil: only `{tag}` and `{version}` may appear in braces.
    static func valueProblem(_ value: String) -> String? {
        var rest = Substring(value)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else {
                return "`value` has an unclosed `{`; use \"{tag}\" or \"{version}\""
            }
            let name = String(rest[rest.index(after: open)..<close])
            if !placeholders.contains(name) {
                return
                    "`value` uses unknown placeholder `{\(name)}`\(Suggestion.hint(for: name, in: placeholders)); use \"{tag}\" or \"{version}\""
            }
            rest = rest[rest.index(after: close)...]
        }
        return value.isEmpty ? "`value` is empty; use \"{tag}\" or \"{version}\"" : nil
    }

    /// Finds the pinned value in `text` and returns the text with it set to `newValue`. The
    /// pattern must match exactly once: none means the file changed shape (or the pattern is
    /// wrong), two means the train cannot know which one is meant. It runs under the regex
    /// manifests' time bound (`RegexManifestReader.timeLimit`): a pattern that backtracks without
    /// end (`(x+x+)+y`) is stopped and reported instead of hanging the train.
    func apply(to text: String, newValue: String) throws(PinError) -> (text: String, old: String, line: Int) {
        guard
            let regex = try? NSRegularExpression(
                pattern: pattern.replacingOccurrences(of: "(?P<version>", with: "(?<version>"),
                options: [.anchorsMatchLines])
        else { throw .badPattern }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: RegexManifestReader.timeLimit)
        var matches: [NSTextCheckingResult] = []
        var timedOut = false
        var calls = 0
        // `.reportProgress` calls the block while ICU works, so a runaway match can be stopped.
        regex.enumerateMatches(in: text, options: [.reportProgress], range: NSRange(text.startIndex..., in: text)) {
            result, _, stop in
            calls += 1
            if let result { matches.append(result) }
            if calls % 1024 == 0, clock.now > deadline {
                timedOut = true
                stop.pointee = true
            }
        }
        if timedOut { throw .timedOut }
        let ranges = matches.compactMap { Range($0.range, in: text) }
        guard matches.count == 1, let match = matches.first else {
            throw matches.isEmpty ? .noMatch : .manyMatches(ranges.map { Self.line(of: $0.lowerBound, in: text) })
        }
        guard let range = Range(match.range(withName: "version"), in: text) else { throw .noMatch }
        let old = String(text[range])
        var updated = text
        updated.replaceSubrange(range, with: newValue)
        return (updated, old, Self.line(of: range.lowerBound, in: text))
    }

    static func line(of index: String.Index, in text: String) -> Int {
        text[..<index].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    }

    enum PinError: Error {
        case badPattern, noMatch, manyMatches([Int]), timedOut
    }
}
