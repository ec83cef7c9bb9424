import Foundation

/// Line handling for files users edit, which may use CRLF line endings. Swift reads "\r\n" as a
/// single Character, so `split(separator: "\n")` would see a whole CRLF file as one line and
/// every error would point at line 1.
extension Character {
    /// True for "\n" and "\r\n".
    package var isLineBreak: Bool { self == "\n" || self == "\r\n" }
}

extension StringProtocol {
    /// The lines of a text file, LF or CRLF, keeping empty ones so an index + 1 is a line number.
    package var fileLines: [SubSequence] { split(omittingEmptySubsequences: false, whereSeparator: \.isLineBreak) }
}

extension Substring {
    /// Without the scalars Foundation's `.whitespaces` holds (tab, the Unicode space separators
    /// and, as Foundation has it, the zero-width space) at either end, and with `newlines` those
    /// of `.whitespacesAndNewlines` too; the same answer as `trimmingCharacters(in:)`, read
    /// natively. Foundation's bridges every string through NSString, and a commit body is
    /// trimmed several times: a twentieth of a 40-member plan.
    package func trimmingBlanks(newlines: Bool = false) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !Self.isBlank($0, newlines: newlines) }),
            let last = scalars.lastIndex(where: { !Self.isBlank($0, newlines: newlines) })
        else { return "" }
        return String(scalars[first...last])
    }

    /// Whether the text is empty or blanks alone (`trimmingBlanks().isEmpty`, without the copy).
    package var isBlank: Bool { unicodeScalars.allSatisfy { Self.isBlank($0, newlines: false) } }

    /// Whether Foundation's `.whitespaces` (with `newlines`, `.whitespacesAndNewlines`) holds `scalar`.
    private static func isBlank(_ scalar: Unicode.Scalar, newlines: Bool) -> Bool {
        switch scalar.value {
        case 0x09, 0x20, 0x200B: return true
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return newlines
        case 0..<0x80: return false
        default: return scalar.properties.generalCategory == .spaceSeparator
        }
    }
}

extension String {
    /// `Substring.trimmingBlanks(newlines:)` of the whole string.
    package func trimmingBlanks(newlines: Bool = false) -> String { self[...].trimmingBlanks(newlines: newlines) }

    /// `Substring.isBlank` of the whole string.
    package var isBlank: Bool { self[...].isBlank }
}

/// Decoding files users edit.
package enum TextFile {
    /// The most relctl reads of a config, manifest, lockfile or checksum file: far above any real
    /// one (a large package-lock.json is a few MB), far below what would take minutes and GBs.
    package static let sizeLimit = 64 << 20

    /// Reads a text file the way relctl's inputs must be: bounded in size (checked before reading),
    /// UTF-8, and without NUL bytes, which would silently end parsing. Each refusal names the file
    /// (and the line); nil when the file does not exist or cannot be opened.
    package static func read(_ url: URL, displayPath: String) throws -> String? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw TextFileError.notRegularFile(path: displayPath, kind: FileKind.describe(info.st_mode))
        }
        guard Int(info.st_size) <= sizeLimit else {
            throw TextFileError.tooLarge(path: displayPath, size: Int64(info.st_size), limit: Int64(sizeLimit))
        }
        guard let data = FileSystem.contents(of: url) else { return nil }
        return try decodeStrict(data, displayPath: displayPath)
    }

    /// `decode`, refusing NUL bytes and invalid UTF-8 with the line they are on.
    package static func decodeStrict(_ data: Data, displayPath: String) throws -> String {
        if let nul = data.firstIndex(of: 0) {
            throw TextFileError.nulByte(path: displayPath, line: line(ofByte: nul, in: data))
        }
        guard let text = String(validatingUTF8Data: data) else {
            let bad = firstInvalidUTF8(in: data) ?? data.startIndex
            throw TextFileError.invalidUTF8(path: displayPath, line: line(ofByte: bad, in: data))
        }
        return text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
    }

    private static func line(ofByte index: Data.Index, in data: Data) -> Int {
        data[data.startIndex..<index].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }

    private static func firstInvalidUTF8(in data: Data) -> Data.Index? {
        var index = data.startIndex
        while index < data.endIndex {
            let byte = data[index]
            let length =
                byte < 0x80 ? 1 : byte >> 5 == 0b110 ? 2 : byte >> 4 == 0b1110 ? 3 : byte >> 3 == 0b11110 ? 4 : 0
            guard length > 0, index + length <= data.endIndex,
                String(bytes: data[index..<(index + length)], encoding: .utf8) != nil
            else { return index }
            index += length
        }
        return nil
    }

    /// UTF-8 text without the byte-order mark Windows editors put first: it is not content, and
    /// left in it would glue itself to the first key or version.
    package static func decode(_ data: Data) -> String {
        let text = String(decoding: data, as: UTF8.self)
        return text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
    }
}

/// Why relctl refuses to read a text file a user edits (config, manifest, lockfile, checksum
/// list); all are bad input (exit 2) naming the file, and the line where there is one.
package enum TextFileError: RelctlError, CustomStringConvertible {
    /// A folder, device or pipe; `kind` says which.
    case notRegularFile(path: String, kind: String)
    /// Larger than relctl reads.
    case tooLarge(path: String, size: Int64, limit: Int64)
    /// A NUL byte, on `line`.
    case nulByte(path: String, line: Int)
    /// Invalid UTF-8, first on `line`.
    case invalidUTF8(path: String, line: Int)

    package var exitCode: RelctlExitCode { .badInput }

    package var diagnostics: [Diagnostic] {
        switch self {
        case let .notRegularFile(path, kind):
            return [Diagnostic(file: path, "is not a regular file (\(kind)); point relctl at the file itself")]
        case let .tooLarge(path, size, limit):
            return [
                Diagnostic(
                    file: path,
                    "is \(ByteCount.format(size)), more than relctl reads (\(ByteCount.format(limit))); is this the right file?"
                )
            ]
        case let .nulByte(path, line):
            return [
                Diagnostic(
                    file: path, line: line,
                    "contains a NUL byte; relctl reads text files only (remove the byte, or check this is the right file)"
                )
            ]
        case let .invalidUTF8(path, line):
            return [Diagnostic(file: path, line: line, "is not valid UTF-8; save it as UTF-8")]
        }
    }

    package var description: String { message }
}

extension String {
    /// The text of `data` when it is valid UTF-8 (no replacement characters), else nil.
    package init?(validatingUTF8Data data: Data) {
        guard let text = String(data: data, encoding: .utf8) else { return nil }
        self = text
    }
}
