import Crypto
import Foundation
import RelctlBasics

/// The text files of a wheel (PEP 427, the binary distribution format): `METADATA` (core
/// metadata 2.1, an RFC 822 header block and the long description as its body), `WHEEL`,
/// the import package's `__init__.py`, and `RECORD` (CSV: path, `sha256=` urlsafe base64 without
/// padding, size; RECORD's own line empty).
package enum WheelContents {
    /// What METADATA says.
    package struct Metadata: Sendable, Equatable {
        package var name: String
        package var version: String
        package var summary: String?
        package var license: String?
        package var homepage: String?
        /// `Name <email>`.
        package var maintainer: String?
        package var requiresPython: String
        /// The long description and its content type (`text/markdown`, `text/x-rst`, `text/plain`).
        package var description: (text: String, contentType: String)?

        package static func == (lhs: Metadata, rhs: Metadata) -> Bool {
            lhs.name == rhs.name && lhs.version == rhs.version && lhs.summary == rhs.summary
                && lhs.license == rhs.license && lhs.homepage == rhs.homepage && lhs.maintainer == rhs.maintainer
                && lhs.requiresPython == rhs.requiresPython && lhs.description?.text == rhs.description?.text
                && lhs.description?.contentType == rhs.description?.contentType
        }
    }

    /// Why `value` cannot be a METADATA header value (a line break would start another field),
    /// or nil.
    package static func problem(field: String, value: String) -> String? {
        guard let bad = value.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) else {
            return nil
        }
        return
            "`\(field)` holds a control character (U+\(String(bad.value, radix: 16, uppercase: true))); a METADATA field is one line"
    }

    /// One `Field: value` line, the value checked to be one line.
    private static func header(_ field: String, _ value: String) throws -> String {
        if let problem = problem(field: field, value: value) {
            throw PythonWheelError.badMetadata(config: "METADATA", reason: problem)
        }
        return field + ": " + value + "\n"
    }

    package static func metadata(_ metadata: Metadata) throws -> Data {
        var text = try header("Metadata-Version", "2.1")
        text += try header("Name", metadata.name)
        text += try header("Version", metadata.version)
        if let summary = metadata.summary { text += try header("Summary", summary) }
        if let homepage = metadata.homepage {
            text += try header("Home-page", homepage)
            text += try header("Project-URL", "Homepage, " + homepage)
        }
        if let maintainer = metadata.maintainer { text += try header("Maintainer-email", maintainer) }
        if let license = metadata.license { text += try header("License", license) }
        text += try header("Requires-Python", metadata.requiresPython)
        if let description = metadata.description {
            text += try header("Description-Content-Type", description.contentType)
            // The body after one blank line is the description, as written (core metadata 2.1).
            text += "\n" + description.text
            if !description.text.hasSuffix("\n") { text += "\n" }
        }
        return Data(text.utf8)
    }

    /// `WHEEL`: the binaries are platform-specific, so the files go to platlib.
    package static func wheel(tag: String) throws -> Data {
        var text = try header("Wheel-Version", "1.0")
        text += try header("Generator", "relctl " + RelctlVersion.version)
        text += try header("Root-Is-Purelib", "false")
        text += try header("Tag", tag)
        return Data((text + "\n").utf8)
    }

    /// The import package's `__init__.py`: a docstring only. It keeps the wheel's library from being
    /// empty (check-wheel-contents W007) and imports nothing.
    package static let initModule = Data(
        "\"\"\"This distribution installs a prebuilt command-line program into the scripts folder.\"\"\"\n".utf8)

    /// A file's RECORD hash: `sha256=` and the digest in urlsafe base64 without `=` padding.
    package static func recordHash(_ digest: SHA256.Digest) -> String {
        let base64 = Data(digest).base64EncodedString()
        return "sha256="
            + base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// `RECORD`: a line per file in the order given, then RECORD's own line with no hash or size.
    package static func record(
        _ files: [(path: String, digest: SHA256.Digest, size: Int64)], recordPath: String
    )
        -> Data
    {
        var text = ""
        for file in files {
            text += csvField(file.path) + "," + recordHash(file.digest) + "," + String(file.size) + "\n"
        }
        text += csvField(recordPath) + ",,\n"
        return Data(text.utf8)
    }

    /// A CSV field as Python's csv module writes one: quoted (quotes doubled) when it holds a
    /// comma, a quote or a line break.
    package static func csvField(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
