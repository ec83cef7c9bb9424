import Foundation
import RelctlBasics

/// Every piece of text the package repositories write (deb822 stanzas, the Release file, the
/// apt and dnf client snippets), each behind one function that checks or quotes the values it
/// did not write itself: a value the format cannot hold is refused naming the field, never
/// written through. One file, so the shared emitters can take it over whole.
package enum RepositoryText {
    /// A deb822 field value on one line (Release fields, `Filename`): no line break, no leading blank.
    package static func singleLine(_ value: String, field: String) throws -> String {
        guard !value.contains(where: \.isNewline), value.first != " ", value.first != "\t" else {
            throw RepositoryError.badValue(
                field: field, value: value, reason: "a one-line deb822 field cannot hold a line break")
        }
        return value
    }

    /// One `Packages` stanza: the package's own control file (already deb822, as dpkg wrote it,
    /// with its trailing blank lines dropped) plus where the file lies and its size and SHA-256.
    package static func packagesStanza(control: String, filename: String, size: Int64, sha256: String) throws -> String
    {
        var body = Substring(control)
        while body.last?.isNewline == true { body = body.dropLast() }
        guard !body.contains("\n\n") else {
            throw RepositoryError.badValue(
                field: "control", value: filename, reason: "the package's control file holds more than one stanza")
        }
        return
            "\(body)\nFilename: \(try singleLine(filename, field: "Filename"))\nSize: \(size)\nSHA256: \(try singleLine(sha256, field: "SHA256"))\n"
    }

    /// A `Packages` file: the stanzas, separated by blank lines.
    package static func packagesFile(_ stanzas: [String]) -> String { stanzas.joined(separator: "\n") }

    /// The `Release` file of a suite (Debian repository format): one-line fields in the given
    /// order, then `SHA256:` with ` HASH SIZE PATH` per index.
    package static func releaseFile(
        fields: [(String, String)], indexes: [(path: String, size: Int, sha256: String)]
    ) throws -> String {
        var text = ""
        for (name, value) in fields { text += "\(name): \(try singleLine(value, field: name))\n" }
        text += "SHA256:\n"
        for index in indexes {
            let size = String(index.size)
            text +=
                " \(index.sha256) \(String(repeating: " ", count: max(0, 16 - size.count)))\(size) \(try singleLine(index.path, field: "SHA256"))\n"
        }
        return text
    }

    /// The deb822 `.sources` file users drop in /etc/apt/sources.list.d/.
    package static func aptSources(url: String, suite: String, keyring: String) throws -> String {
        "Types: deb\nURIs: \(try singleLine(url, field: "URIs"))\nSuites: \(try singleLine(suite, field: "Suites"))\nComponents: main\nSigned-By: \(try singleLine(keyring, field: "Signed-By"))\n"
    }

    /// The one-line form of the same source, for sources.list.
    package static func aptSourcesLine(url: String, suite: String, keyring: String) throws -> String {
        for (value, field) in [(url, "URIs"), (suite, "Suites"), (keyring, "Signed-By")]
        where value.contains(where: { $0.isWhitespace || $0 == "]" || $0 == "[" }) {
            throw RepositoryError.badValue(
                field: field, value: value, reason: "a sources.list line cannot hold blanks or brackets")
        }
        return "deb [signed-by=\(keyring)] \(url) \(suite) main\n"
    }

    /// RFC 1123 date in UTC as the Release file's `Date` field spells it.
    package static func releaseDate(_ epoch: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'UTC'"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(epoch)))
    }

    /// The value of `field` in a deb822 stanza (first line only), or nil.
    package static func field(_ name: String, in stanza: String) -> String? {
        for line in stanza.split(separator: "\n") where !line.hasPrefix(" ") && !line.hasPrefix("\t") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].caseInsensitiveCompare(name) == .orderedSame {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// The stanzas of a deb822 file (blank-line separated).
    package static func stanzas(_ text: String) -> [String] {
        var result: [String] = []
        var current = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).isEmpty {
                if !current.isEmpty { result.append(current) }
                current = ""
            } else {
                current += line + "\n"
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }
}
