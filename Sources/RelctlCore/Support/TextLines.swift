import Foundation

/// Line handling for files users edit, which may use CRLF line endings. Swift reads "\r\n" as a
/// single Character, so `split(separator: "\n")` would see a whole CRLF file as one line and
/// every error would point at line 1.
extension Character {
    /// True for "\n" and "\r\n".
    var isLineBreak: Bool { self == "\n" || self == "\r\n" }
}

extension StringProtocol {
    /// The lines of a text file, LF or CRLF, keeping empty ones so an index + 1 is a line number.
    var fileLines: [SubSequence] { split(omittingEmptySubsequences: false, whereSeparator: \.isLineBreak) }
}

/// Decoding files users edit.
enum TextFile {
    /// UTF-8 text without the byte-order mark Windows editors put first: it is not content, and
    /// left in it would glue itself to the first key or version.
    static func decode(_ data: Data) -> String {
        let text = String(decoding: data, as: UTF8.self)
        return text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
    }
}
