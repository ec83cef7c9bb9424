/// What a commit subject without a Conventional Commits type says of its change, for
/// `[versioning] untyped-adds` (docs/versions.md): PyGithub's "Add support for …", date-fns'
/// "Add `intlFormatDistance`", cheerio's "Add `.wrapAll`" each went into a minor, their fixes
/// into patches.
package enum UntypedSubject {
    /// Leading verbs that say the change adds something to what the project offers.
    static let addingVerbs: Set<String> = [
        "add", "adds", "added", "adding", "support", "supports", "supported", "allow", "allows", "implement",
        "implements", "implemented", "introduce", "introduces", "introduced", "expose", "exposes",
    ]

    /// Words that make an adding subject housekeeping (`Add tests for …`, `Add missing import`,
    /// `Add CI job`): nothing a user of the release gains.
    static let housekeepingWords: Set<String> = [
        "test", "tests", "testing", "doc", "docs", "documentation", "readme", "changelog", "ci", "workflow",
        "workflows", "typo", "typos", "link", "links", "badge", "badges", "funding", "example", "examples",
        "comment", "comments", "license", "contributor", "contributors", "sponsor", "sponsors", "logo", "missing",
        "changeset", "changesets", "benchmark", "benchmarks", "gitignore", "editorconfig", "dependabot", "renovate", "lint", "linter", "note", "notes", "release",
        // A Markdown file named (rubocop's "Add newline at end of CLAUDE.md", "Add AGENTS.md").
        "md",
    ]

    /// Whether `subject` (one that carries no type) adds something: its first word, after an
    /// area prefix (`net/http: add …`, `[cli] Add …`), is an adding verb, and no word names
    /// housekeeping.
    package static func adds(_ subject: String) -> Bool {
        var text = Substring(subject.trimmingSpaces())
        if text.first == "[", let close = text.prefix(32).firstIndex(of: "]") {
            text = text[text.index(after: close)...]
        } else if let colon = text.prefix(32).firstIndex(of: ":"),
            text[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "./-_".contains($0) }),
            text[text.index(after: colon)...].first == " "
        {
            text = text[text.index(after: colon)...]
        }
        let words = text.lowercased().split { !($0.isLetter || $0.isNumber) || !$0.isASCII }
        guard let first = words.first, addingVerbs.contains(String(first)) else { return false }
        // What comes `with` the change is not the change (swift-asn1's "Added visible string
        // implementation with tests").
        return !words.prefix { $0 != "with" }.contains { housekeepingWords.contains(String($0)) }
    }
}
