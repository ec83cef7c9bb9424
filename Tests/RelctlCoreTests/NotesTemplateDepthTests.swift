import Foundation
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject
@testable import RelctlRelease

/// A notes template nested thousands of sections deep is refused, not a crash (issue 26, item 17).
@Suite("Notes template depth", .timeLimit(.minutes(30)), .removesTemporaries)
struct NotesTemplateDepthTests {
    @Test("5,000 nested sections are bad input naming the line; 32 levels still parse")
    func depthIsBounded() throws {
        let deep =
            "# notes\n" + String(repeating: "{{#entries}}", count: 5000)
            + String(repeating: "{{/entries}}", count: 5000)
        let error = #expect(throws: NotesError.self) { try NotesTemplate(text: deep, displayPath: "notes.mustache") }
        #expect(error?.exitCode == .badInput)
        #expect(error?.message.contains("notes.mustache:2") == true, "\(String(describing: error?.message))")
        #expect(error?.message.contains("nested 33 deep") == true)
        // With other delimiters the same nesting is found.
        let swapped = "{{=<% %>=}}" + String(repeating: "<%#a%>", count: 40) + String(repeating: "<%/a%>", count: 40)
        #expect(throws: NotesError.self) { try NotesTemplate(text: swapped, displayPath: "t") }
        let fine = String(repeating: "{{#a}}", count: 32) + "x" + String(repeating: "{{/a}}", count: 32)
        _ = try NotesTemplate(text: fine, displayPath: "t")
    }
}
