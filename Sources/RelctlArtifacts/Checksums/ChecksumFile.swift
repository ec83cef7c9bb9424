import Foundation
import RelctlBasics

/// A checksum list in the `sha256sum`/`sha512sum` format (`HEX  NAME`), as relctl writes it in
/// `NAME.sha256` and `SHA256SUMS`; reads GNU (`HEX  NAME`, `HEX *NAME`) and BSD
/// (`SHA256 (NAME) = HEX`, as `shasum --tag` and `openssl dgst` print) lines.
package struct ChecksumFile: Sendable, Equatable {
    package struct Entry: Sendable, Equatable {
        /// The file name as listed, relative to the checksum file's folder.
        package var name: String
        /// Lowercase hex.
        package var digest: String {
            get { storedDigest.text }
            set { storedDigest = Self.store(newValue) }
        }
        /// A SHA-256 inline: a list of 100,000 archives is 100,000 entries (issue 31).
        private var storedDigest: StoredHex
        package var algorithm: ChecksumAlgorithm
        /// 1-based line in the file read; nil for entries made in memory.
        package var line: Int?

        package init(name: String, digest: String, algorithm: ChecksumAlgorithm, line: Int? = nil) {
            self.name = name
            self.storedDigest = Self.store(digest)
            self.algorithm = algorithm
            self.line = line
        }

        package init(name: String, sha256: SHA256Bytes) {
            self.name = name
            self.storedDigest = StoredHex(sha256)
            self.algorithm = .sha256
            self.line = nil
        }

        /// This entry's line, newline included.
        package var rendered: String {
            guard name.unicodeScalars.contains(where: { $0 == "\\" || $0 == "\n" || $0 == "\r" }) else {
                return "\(digest)  \(name)\n"
            }
            var escaped = ""
            for scalar in name.unicodeScalars {
                switch scalar {
                case "\\": escaped += "\\\\"
                case "\n": escaped += "\\n"
                case "\r": escaped += "\\r"
                default: escaped.unicodeScalars.append(scalar)
                }
            }
            return "\\\(digest)  \(escaped)\n"
        }

        private static func store(_ digest: String) -> StoredHex {
            StoredHex(digest.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) ? digest.lowercased() : digest)
        }
    }

    package var entries: [Entry]

    package init(entries: [Entry]) {
        self.entries = entries
    }

    /// Entries sorted bytewise by name (the order `sort` gives with `LC_ALL=C`).
    package var sorted: ChecksumFile {
        ChecksumFile(entries: entries.sorted { bytewiseLess($0.name, $1.name) })
    }

    /// The text `sha256sum -c` accepts: one `HEX  NAME` line per entry, each ending in a
    /// newline, nothing after the last. Names holding `\`, a newline or a carriage return are
    /// escaped as GNU coreutils 9 does (a leading `\`, then `\\`, `\n`, `\r`).
    package func render() -> String {
        var text = ""
        render { text += $0 }
        return text
    }

    /// `render()` a line at a time, for lists too long to hold as one text.
    package func render(_ line: (String) throws -> Void) rethrows {
        for entry in entries { try line(entry.rendered) }
    }

    /// Reads a checksum file; bad input (exit 2) naming the file when it cannot be read.
    package static func read(_ url: URL, displayPath: String? = nil) throws -> ChecksumFile {
        let shown = displayPath ?? url.path
        let kind = FileSystem.kind(of: url)
        if kind == .directory { throw ChecksumError.listIsFolder(path: shown) }
        let read: String?
        do { read = try TextFile.read(url, displayPath: shown) } catch TextFileError.invalidUTF8(_, let line) {
            // sha256sum writes a name as the file system's bytes; "save it as UTF-8" would break
            // the list, so say which line and what to rename.
            throw ChecksumError.nameNotUTF8(path: shown, line: line, text: rawLine(line, of: url))
        }
        guard let text = read else {
            throw ChecksumError.listUnreadable(path: shown, exists: kind != nil)
        }
        return try parse(text, path: shown)
    }

    /// Line `number` of the file with every byte outside printable ASCII as `\xHH`.
    package static func rawLine(_ number: Int, of url: URL) -> String {
        let data = FileSystem.contents(of: url) ?? Data()
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard number >= 1, number <= lines.count else { return "" }
        let shown = lines[number - 1].prefix(120).map { byte in
            (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : String(format: "\\x%02X", byte)
        }
        return shown.joined()
    }

    /// Parses checksum text. Blank lines are skipped; any other line that is neither GNU nor
    /// BSD style is bad input (exit 2), every such line reported with its number.
    package static func parse(_ text: String, path: String) throws -> ChecksumFile {
        var entries: [Entry] = []
        var problems: [any RelctlError] = []
        var firstLine: [String: Int] = [:]
        // Notepad and PowerShell start UTF-8 files with a byte-order mark; it is not part of a digest.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        for (offset, rawLine) in text.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }
        ).enumerated() {
            let number = offset + 1
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line = line.dropLast() }
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            guard let entry = parseLine(line, number: number) else {
                let shown = line.count > 60 ? String(line.prefix(57)) + "..." : String(line)
                problems.append(ChecksumError.malformedLine(path: path, line: number, text: shown))
                continue
            }
            if let first = firstLine[entry.name] {
                let previous = entries.first { $0.name == entry.name }!
                if previous.digest != entry.digest || previous.algorithm != entry.algorithm {
                    problems.append(
                        ChecksumError.listedTwice(path: path, line: number, name: entry.name, firstLine: first))
                }
                continue
            }
            firstLine[entry.name] = number
            entries.append(entry)
        }
        if !problems.isEmpty { throw ProblemList(problems) }
        return ChecksumFile(entries: entries)
    }

    private static func parseLine(_ line: Substring, number: Int) -> Entry? {
        parseBSD(line, number: number) ?? parseGNU(line, number: number)
    }

    /// `HEX  NAME` or `HEX *NAME`; a leading `\` means the name is escaped.
    private static func parseGNU(_ line: Substring, number: Int) -> Entry? {
        var rest = line
        let escaped = rest.first == "\\"
        if escaped { rest = rest.dropFirst() }
        let hex = rest.prefix { $0.isASCII && $0.isHexDigit }
        guard let algorithm = ChecksumAlgorithm.forHexLength(hex.count) else { return nil }
        rest = rest.dropFirst(hex.count)
        guard rest.first == " ", let mode = rest.dropFirst().first, mode == " " || mode == "*" else { return nil }
        var name = String(rest.dropFirst(2))
        guard !name.isEmpty else { return nil }
        if escaped {
            guard let unescaped = unescape(name) else { return nil }
            name = unescaped
        }
        return Entry(name: name, digest: String(hex), algorithm: algorithm, line: number)
    }

    /// `SHA256 (NAME) = HEX` (BSD, `shasum --tag`, `sha256sum --tag`) or `SHA2-256(NAME)= HEX`
    /// (`openssl dgst`).
    private static func parseBSD(_ line: Substring, number: Int) -> Entry? {
        var rest = line
        let escaped = rest.first == "\\"
        if escaped { rest = rest.dropFirst() }
        guard let open = rest.firstIndex(of: "(") else { return nil }
        var tag = rest[..<open]
        if tag.hasSuffix(" ") { tag = tag.dropLast() }
        guard let algorithm = ChecksumAlgorithm.forBSDTag(String(tag)) else { return nil }
        let hex = rest.suffix(algorithm.hexLength)
        guard hex.count == algorithm.hexLength, hex.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        var middle = rest[rest.index(after: open)..<hex.startIndex]
        if middle.hasSuffix(") = ") {
            middle = middle.dropLast(4)
        } else if middle.hasSuffix(")= ") {
            middle = middle.dropLast(3)
        } else {
            return nil
        }
        var name = String(middle)
        guard !name.isEmpty else { return nil }
        if escaped {
            guard let unescaped = unescape(name) else { return nil }
            name = unescaped
        }
        return Entry(name: name, digest: String(hex), algorithm: algorithm, line: number)
    }

    /// Reads every escape coreutils writes in a name: `\\`, `\n` and (coreutils 9) `\r`.
    private static func unescape(_ name: String) -> String? {
        var result = String.UnicodeScalarView()
        var iterator = name.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "\\" else { result.append(scalar); continue }
            switch iterator.next() {
            case "\\": result.append("\\")
            case "n": result.append("\n")
            case "r": result.append("\r")
            default: return nil
            }
        }
        return String(result)
    }
}

/// A digest relctl can write and verify. `sha256` is the default; `sha512` costs one more
/// pass of the CPU over bytes already read.
public enum ChecksumAlgorithm: String, Sendable, CaseIterable, Codable, Hashable {
    case sha256, sha512

    /// Parses a user-given id (`sha256`, `SHA-512`, …); bad input (exit 2) listing the known ids.
    public init(id: String, file: String? = nil) throws {
        let normal = id.lowercased().replacingOccurrences(of: "-", with: "")
        guard let algorithm = ChecksumAlgorithm(rawValue: normal) else {
            throw ChecksumError.unknownAlgorithm(id: id, file: file)
        }
        self = algorithm
    }

    /// The combined file's name: `SHA256SUMS`.
    public var sumsFileName: String { rawValue.uppercased() + "SUMS" }
    /// The per-archive file's suffix: `.sha256`.
    package var fileExtension: String { "." + rawValue }
    /// Length of the lowercase hex digest.
    package var hexLength: Int { self == .sha256 ? 64 : 128 }

    /// The algorithm a GNU line's digest length implies.
    package static func forHexLength(_ length: Int) -> ChecksumAlgorithm? {
        allCases.first { $0.hexLength == length }
    }

    /// The algorithm named by a BSD tag (`SHA256`, `SHA2-256` as openssl 3 spells it).
    package static func forBSDTag(_ tag: String) -> ChecksumAlgorithm? {
        switch tag.uppercased() {
        case "SHA256", "SHA2-256": return .sha256
        case "SHA512", "SHA2-512": return .sha512
        default: return nil
        }
    }
}
