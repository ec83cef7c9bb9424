import Foundation
import Testing

@testable import RelctlBasics

/// `trimmingBlanks` replaces Foundation's `trimmingCharacters(in:)` on the paths every commit
/// takes (its NSString bridge was a tenth of a 40-member plan): it must answer the same.
@Suite("trimming blanks", .timeLimit(.minutes(30)))
struct TrimmingBlanksTests {
    /// Every text built from a few kinds of ends around a few kinds of middles.
    static let texts: [String] = {
        let ends = [
            "", " ", "\t", "  \t ", "\n", "\r\n", "\r", "\u{0B}\u{0C}", "\u{85}", "\u{A0}", "\u{2003}", "\u{3000}",
            "\u{2028}", "\u{2029}", " \n ", "\u{200B}", "x",
        ]
        let middles = ["", "fix: a bug", "Refs: #12", "é", "e\u{301}", "👩‍👩‍👧", " inner  space ", "a\nb", "\u{301}"]
        var texts: [String] = []
        for head in ends { for middle in middles { for tail in ends { texts.append(head + middle + tail) } } }
        return texts
    }()

    @Test("the same as trimmingCharacters(in: .whitespaces), on every text")
    func spaces() {
        let differing = Self.texts.filter { $0.trimmingBlanks() != $0.trimmingCharacters(in: .whitespaces) }
        #expect(differing.isEmpty, "\(differing.prefix(5).map { Array($0.unicodeScalars) })")
        #expect(Self.texts.count == 17 * 9 * 17)
    }

    @Test("with newlines, the same as trimmingCharacters(in: .whitespacesAndNewlines)")
    func spacesAndNewlines() {
        let differing = Self.texts.filter {
            $0.trimmingBlanks(newlines: true) != $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(differing.isEmpty, "\(differing.prefix(5).map { Array($0.unicodeScalars) })")
    }

    @Test("each scalar of the Basic Multilingual Plane is a blank exactly where Foundation's sets hold it")
    func everyScalar() {
        var differing: [UInt32] = []
        for value in UInt32(0)..<0x10000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "a" + String(Character(scalar))
            if (text.trimmingBlanks() == "a") != CharacterSet.whitespaces.contains(scalar)
                || (text.trimmingBlanks(newlines: true) == "a") != CharacterSet.whitespacesAndNewlines.contains(scalar)
                || String(Character(scalar)).isBlank != CharacterSet.whitespaces.contains(scalar)
            {
                differing.append(value)
            }
        }
        #expect(differing.isEmpty, "\(differing.prefix(10).map { String($0, radix: 16) })")
    }

    @Test("on a substring, and isBlank as its empty answer")
    func substrings() {
        let line = "  body text \t"[...]
        #expect(line.trimmingBlanks() == "body text")
        #expect(" \t\u{A0}"[...].isBlank)
        #expect(!" x "[...].isBlank)
        #expect(""[...].isBlank)
    }
}
