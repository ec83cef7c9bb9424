import Testing
@testable import RelctlCore

@Test func suggestionFindsSwappedLetters() {
    #expect(Suggestion.closest(to: "tag-fromat", in: ["name", "tag-format"]) == "tag-format")
    #expect(Suggestion.closest(to: "zzzzzz", in: ["name", "tag-format"]) == nil)
}
