import Foundation
import RelctlBasics
import RelctlModel

/// The metadata a package shows (`dpkg -I`, `rpm -qi`), resolved from `[project]` and a
/// `[[package]]` table's overrides and checked complete.
package struct PackageMetadata: Sendable, Equatable {
    /// The first line of the description, without a final period (both linters ask for that).
    package var summary: String
    /// The rest of the description, as paragraphs of lines; may be empty.
    package var body: [String]
    /// SPDX expression.
    package var license: String
    package var homepage: String?
    /// `Name <email>`.
    package var maintainer: String
    /// The license's full text for the copyright file, when the project has one.
    package var licenseText: String?

    /// For computing file names, which use no metadata.
    package static let placeholder = PackageMetadata(summary: "", body: [], license: "", maintainer: "")

    private init(summary: String, body: [String], license: String, maintainer: String) {
        self.summary = summary
        self.body = body
        self.license = license
        self.maintainer = maintainer
    }

    /// The keys a package needs that neither `[project]` nor the table sets.
    package static func missingKeys(_ metadata: ProjectMetadata) -> [String] {
        var missing: [String] = []
        if (metadata.description ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            missing.append("description")
        }
        if (metadata.license ?? "").isEmpty { missing.append("license") }
        if (metadata.maintainer ?? "").isEmpty { missing.append("maintainer") }
        return missing
    }

    /// A problem with a set value, or nil.
    package static func problem(maintainer: String) -> String? {
        // No control character: a line break would start a field of its own in the control file.
        let pattern = /^[^<>\p{Cc}]+ <[^<>@\s]+@[^<>@\s]+>$/
        return maintainer.wholeMatch(of: pattern) == nil
            ? "`maintainer` `\(maintainer)` must read `Name <email>`, as Debian and RPM packagers expect" : nil
    }

    /// Why `value` (of `key`) cannot be written into a deb `control` file or an rpm header's text,
    /// or nil. A line break would start a field of its own (`Depends: x\nPre-Depends: evil`) and
    /// other control characters have no place in either; a description's line breaks are its
    /// own (each becomes a continuation line), so `lineBreaks` lets LF through there.
    package static func problem(key: String, value: String, lineBreaks: Bool = false) -> String? {
        guard
            let bad = value.unicodeScalars.first(where: {
                ($0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}")
                    && !(lineBreaks && $0 == "\n")
            })
        else { return nil }
        let code = "U+" + String(bad.value, radix: 16, uppercase: true).leftPadded(to: 4)
        return
            "`\(key)` `\(Console.printable(value))` holds a control character (\(code)); a deb control or rpm header field is \(lineBreaks ? "text whose only breaks are line breaks" : "one line"), so remove it"
    }

    /// nil when a required key is missing (`missingKeys` says which).
    package init?(_ metadata: ProjectMetadata, licenseText: String?) {
        guard let description = metadata.description, let license = metadata.license,
            let maintainer = metadata.maintainer, Self.missingKeys(metadata).isEmpty
        else { return nil }
        var lines = description.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0).trimmingCharacters(in: .whitespaces)
        }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        var summary = lines.removeFirst()
        while summary.hasSuffix(".") { summary.removeLast() }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        while lines.last?.isEmpty == true { lines.removeLast() }
        self.summary = summary
        self.body = lines
        self.license = license
        self.homepage = metadata.homepage
        self.maintainer = maintainer
        self.licenseText = licenseText
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
