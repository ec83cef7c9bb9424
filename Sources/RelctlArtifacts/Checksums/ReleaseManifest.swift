import Foundation
import RelctlBasics

/// `dist/manifest.json` (contract schema 1): the machine-readable record of a release's
/// artifacts that CI, release notes and installers read.
public struct ReleaseManifest: Codable, Sendable, Equatable {
    package static let fileName = "manifest.json"

    package var schema: Int = 1
    package var project: String
    package var tag: String
    package var version: String
    package var commit: String
    /// The archives, sorted bytewise by name; each encodes as exactly schema 1's five keys.
    public var artifacts: [Artifact]
    /// Packages for a language's registry (`[pypi]` wheels), sorted bytewise by name, in the same
    /// five keys; absent when the release has none, so a manifest without them is byte for byte
    /// what it was. Kept apart from `artifacts`, which the installers and channels read as archives.
    package var packages: [Artifact]?

    package init(project: String, tag: String, version: String, commit: String, artifacts: [Artifact] = []) {
        self.project = project
        self.tag = tag
        self.version = version
        self.commit = commit
        self.artifacts = artifacts
    }

    /// Reads `DIR/manifest.json`; nil when absent, bad input (exit 2) when unreadable.
    package static func read(in directory: URL) throws -> ReleaseManifest? {
        let url = directory.appendingPathComponent(fileName)
        guard let data = FileSystem.contents(of: url) else { return nil }
        do { return try JSONDecoder().decode(ReleaseManifest.self, from: data) } catch {
            throw ChecksumError.notAManifest(path: url.path, reason: "\(error)")
        }
    }

    /// `DIR/manifest.json` without its artifacts (`artifacts` is empty): what a folder scan needs
    /// of the last manifest (project, tag, version, commit). The file is read in pieces and its
    /// `artifacts` array skipped as it streams by, so a manifest of 100,000 archives (25 MB) is
    /// never held, nor decoded (issue 31). Nil when absent; bad input when the rest is not a manifest.
    package static func readHeader(in directory: URL) throws -> ReleaseManifest? {
        let url = directory.appendingPathComponent(fileName)
        let file: ReadableFile
        do { file = try ReadableFile(path: url.path) } catch { return nil }
        var skipper = TopLevelArraySkipper(key: "artifacts")
        var kept: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count: Int
            do { count = try file.read(into: buffer) } catch {
                throw ChecksumError.notAManifest(path: url.path, reason: error.description)
            }
            if count == 0 { break }
            for byte in buffer[0..<count] { skipper.feed(byte, into: &kept) }
        }
        do { return try JSONDecoder().decode(ReleaseManifest.self, from: Data(kept)) } catch {
            throw ChecksumError.notAManifest(path: url.path, reason: "\(error)")
        }
    }

    /// Formats of artifacts that are packages for another installer, not archives to unpack:
    /// `[npm]`'s tarballs. The archives' readers (installers, notes, channels) leave them out.
    package static let packageFormats: Set<String> = ["npm", ArtifactBundle.format]

    /// The archives among the artifacts (every artifact but the packages of `packageFormats`).
    package var archives: [Artifact] { artifacts.filter { !Self.packageFormats.contains($0.format) } }

    /// Adds or replaces artifacts by name, keeping the list sorted bytewise.
    package mutating func upsert(_ new: [Artifact]) {
        // The common case, a fresh list of distinct names (a folder scanned): no dictionary of
        // every artifact on the side.
        if artifacts.isEmpty, zip(new, new.dropFirst()).allSatisfy({ bytewiseLess($0.name, $1.name) }) {
            artifacts = new
            return
        }
        var byName = Dictionary(artifacts.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        for artifact in new { byName[artifact.name] = artifact }
        artifacts = byName.values.sorted { bytewiseLess($0.name, $1.name) }
    }

    /// Writes `DIR/manifest.json` atomically, streamed artifact by artifact.
    package func write(in directory: URL) throws {
        try AtomicFile.write(to: directory.appendingPathComponent(Self.fileName)) { out in
            try encode(into: out)
        }
    }

    /// The document `JSONOutput.encode` gives, byte for byte (`ReleaseManifestTests` compares the two).
    package func encoded() throws -> String {
        var text = ""
        try encode { text += $0 }
        return text
    }

    /// The document in pieces, without its encoder holding the whole tree: each artifact is
    /// encoded on its own and set into the document's `artifacts` array. With 100,000 archives
    /// in one folder the whole-document encoder peaked at over 200 MB, and the whole text is
    /// 25 MB; this holds one artifact at a time.
    package func encode(into piece: (String) throws -> Void) throws {
        guard !artifacts.isEmpty else { return try piece(try JSONOutput.encode(self)) }
        var shell = self
        shell.artifacts = []
        // The first array in the sorted document is `artifacts` (the first key): its empty
        // form is replaced by the artifacts.
        let empty = try JSONOutput.encode(shell)
        guard let open = empty.range(of: "\"artifacts\" : ["), let close = empty[open.upperBound...].firstIndex(of: "]")
        else { return try piece(try JSONOutput.encode(self)) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try piece(String(empty[..<open.upperBound]))
        for (index, artifact) in artifacts.enumerated() {
            var text = index == 0 ? "\n" : ",\n"
            let object = String(decoding: try encoder.encode(artifact), as: UTF8.self)
            var first = true
            for line in object.split(separator: "\n", omittingEmptySubsequences: false) {
                if !first { text += "\n" }
                text += "    "
                text += line
                first = false
            }
            try piece(text)
        }
        try piece("\n  " + empty[close...])
    }
}

/// Copies a JSON document byte by byte, except that the array value of one key of the top-level
/// object is copied as `[]`. It follows strings (with escapes) and nesting, nothing more: what is
/// not JSON is left for the decoder to refuse.
package struct TopLevelArraySkipper {
    private let key: [UInt8]
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// The text of the string just closed at depth 1, and whether a `:` followed it.
    private var stringBytes: [UInt8] = []
    private var lastString: [UInt8]? = nil
    private var afterColon = false
    /// Inside the skipped array: the depth it opened at.
    private var skippingFrom: Int? = nil

    package init(key: String) { self.key = Array(key.utf8) }

    package mutating func feed(_ byte: UInt8, into out: inout [UInt8]) {
        if let from = skippingFrom {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                return
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth == from {
                    skippingFrom = nil
                    out.append(UInt8(ascii: "]"))
                }
            default: break
            }
            return
        }
        out.append(byte)
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
                if depth == 1 { lastString = stringBytes }
                return
            }
            if depth == 1 { stringBytes.append(byte) }
            return
        }
        switch byte {
        case UInt8(ascii: "\""):
            inString = true
            stringBytes.removeAll(keepingCapacity: true)
            afterColon = false
        case UInt8(ascii: ":"):
            afterColon = depth == 1 && lastString == key
        case UInt8(ascii: "["):
            if afterColon, depth == 1 {
                skippingFrom = depth
            }
            depth += 1
            afterColon = false
        case UInt8(ascii: "{"):
            depth += 1
            afterColon = false
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
            depth -= 1
            afterColon = false
        case UInt8(ascii: ","):
            lastString = nil
            afterColon = false
        case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
            break
        default:
            afterColon = false
        }
    }
}
