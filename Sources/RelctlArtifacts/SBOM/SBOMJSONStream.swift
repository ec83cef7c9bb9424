import Foundation
import RelctlBasics

/// Writes an SBOM's JSON in pieces, with the same bytes `JSONOutput.encode` gives for the whole
/// document. An archive of 100,000 files made JSONEncoder build a tree of 100,000 components, then
/// the whole text, then a copy of it as bytes: about 1.5 KB per file at once (issue 31). Here the
/// document without its files is encoded whole (it is small), JSONEncoder encodes one file
/// component with marker values to give the template every file follows, and the files are
/// written one at a time.
package enum SBOMJSONStream {
    private static let pathMarkers = ["RELCTL-SBOM-PATH-MARKER-1", "RELCTL-SBOM-PATH-MARKER-2"]
    private static let hashMarkers = ["RELCTL-SBOM-HASH-MARKER-1", "RELCTL-SBOM-HASH-MARKER-2"]

    /// Hands the document's bytes to `emit` in order. `subject.files` is read once, in path order.
    package static func write(
        _ subject: SBOMBuilder.Subject, dependencies: [SBOMDocument.Component],
        emit: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var files = subject.files
        if files.isEmpty {
            let text = try JSONOutput.encode(SBOMBuilder.document(for: subject, dependencies: dependencies))
            try emitText(text, emit)
            return
        }
        // Writers record files in layout order, which is already bytewise: no copy to sort then.
        if !zip(files, files.dropFirst()).allSatisfy({ !ArchivedFile.pathLess($1, $0) }) {
            files.sort(by: ArchivedFile.pathLess)
        }
        // Two marker files: the text before the first is the head, between them the separator,
        // after the second the tail; the first's own text is the template of every file.
        var shape = subject
        shape.files = pathMarkers.map { ArchivedFile(path: $0, sha256: "", size: 0) }
        var document = SBOMBuilder.document(for: shape, dependencies: dependencies)
        for index in document.components.indices {
            if let position = pathMarkers.firstIndex(of: document.components[index].name) {
                document.components[index].hashes = [.init(alg: "SHA-256", content: hashMarkers[position])]
            }
        }
        let text = Array(try JSONOutput.encode(document).utf8)
        guard let layout = Layout(text) else {
            // Not the shape expected of JSONEncoder: the whole document, as before, is still right.
            try emitText(try JSONOutput.encode(SBOMBuilder.document(for: subject, dependencies: dependencies)), emit)
            return
        }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 16)
        func flush(_ force: Bool) throws {
            guard force || buffer.count >= 1 << 16 else { return }
            try buffer.withUnsafeBytes { try emit($0) }
            buffer.removeAll(keepingCapacity: true)
        }
        buffer.append(contentsOf: text[layout.head])
        for (index, file) in files.enumerated() {
            if index > 0 { buffer.append(contentsOf: text[layout.separator]) }
            for piece in layout.template {
                switch piece {
                case .text(let range): buffer.append(contentsOf: text[range])
                case .path: try appendEscaped(file, into: &buffer)
                case .hash: buffer.append(contentsOf: file.sha256.utf8)
                }
            }
            try flush(false)
        }
        buffer.append(contentsOf: text[layout.tail])
        try flush(true)
    }

    /// Where the pieces lie in the encoded shape document.
    private struct Layout {
        enum Piece: Equatable { case text(Range<Int>), path, hash }
        var head: Range<Int>
        var template: [Piece] = []
        var separator: Range<Int>
        var tail: Range<Int>

        init?(_ text: [UInt8]) {
            let path1 = Array(pathMarkers[0].utf8), path2 = Array(pathMarkers[1].utf8)
            let hash1 = Array(hashMarkers[0].utf8)
            let first = SBOMJSONStream.occurrences(of: path1, in: text)
            let second = SBOMJSONStream.occurrences(of: path2, in: text)
            let hashes = SBOMJSONStream.occurrences(of: hash1, in: text)
            // bom-ref and name each hold the path once, the hash once: nothing else may.
            guard first.count == 2, second.count == 2, hashes.count == 1,
                let start1 = text[..<first[0]].lastIndex(of: UInt8(ascii: "{")),
                let end1 = text[first[1]...].firstIndex(of: UInt8(ascii: "}")),
                let start2 = text[..<second[0]].lastIndex(of: UInt8(ascii: "{")),
                let end2 = text[second[1]...].firstIndex(of: UInt8(ascii: "}")),
                start1 < first[0], first[1] < end1, end1 < start2,
                first[0] < hashes[0], hashes[0] < first[1]
            else { return nil }
            head = 0..<start1
            separator = (end1 + 1)..<start2
            tail = (end2 + 1)..<text.count
            // Marker 1's bom-ref is "file:" + path: the prefix stays in the template text.
            var cursor = start1
            for (position, piece) in [(first[0], Piece.path), (hashes[0], .hash), (first[1], .path)] {
                template.append(.text(cursor..<position))
                template.append(piece)
                cursor = position + (piece == .hash ? hash1.count : path1.count)
            }
            template.append(.text(cursor..<(end1 + 1)))
            // The second file's text must be the first's with its own values, or the template is wrong.
            let secondText = Array(text[start2...end2])
            var expected: [UInt8] = []
            for piece in template {
                switch piece {
                case .text(let range): expected += text[range]
                case .path: expected += path2
                case .hash: expected += Array(hashMarkers[1].utf8)
                }
            }
            guard expected == secondText else { return nil }
        }
    }

    private static func occurrences(of needle: [UInt8], in text: [UInt8]) -> [Int] {
        guard !needle.isEmpty, text.count >= needle.count else { return [] }
        var found: [Int] = []
        var index = 0
        while index <= text.count - needle.count {
            if text[index] == needle[0] && text[index..<(index + needle.count)].elementsEqual(needle) {
                found.append(index)
                index += needle.count
            } else {
                index += 1
            }
        }
        return found
    }

    /// The path as a JSON string body. Printable ASCII other than `"` and `\` is written as it is
    /// (JSONEncoder leaves it alone, `/` included with `.withoutEscapingSlashes`); any other path
    /// is escaped by JSONEncoder itself, so the bytes cannot differ from encoding the whole document.
    private static func appendEscaped(_ file: ArchivedFile, into buffer: inout [UInt8]) throws {
        var plain = true
        file.withPathBytes { bytes in
            if plain {
                plain = bytes.allSatisfy {
                    $0 >= 0x20 && $0 < 0x7f && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
                }
            }
        }
        if plain {
            file.withPathBytes { buffer.append(contentsOf: $0) }
            return
        }
        // `["…"]` compact: the string's escaped body is what lies between `["` and `"]`.
        let encoded = Array(try JSONOutput.compact([file.path]).utf8)
        buffer.append(contentsOf: encoded[2..<(encoded.count - 2)])
    }

    private static func emitText(_ text: String, _ emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        var text = text
        try text.withUTF8 { try emit(UnsafeRawBufferPointer($0)) }
    }
}
