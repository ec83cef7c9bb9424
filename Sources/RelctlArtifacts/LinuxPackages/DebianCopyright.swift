import Foundation
import RelctlBasics

/// `/usr/share/doc/{package}/copyright` in Debian's machine-readable format (DEP-5, copyright
/// format 1.0): one `Files: *` paragraph under the project's SPDX license, and the license's
/// full text in a stand-alone License paragraph when the project has a license file.
package enum DebianCopyright {
    /// - Parameter onDebian: a license Debian ships in /usr/share/common-licenses is referred to
    ///   there instead of copied, as Debian Policy 12.5 asks (the .deb); elsewhere the text is kept.
    package static func render(_ spec: LinuxPackageSpec, onDebian: Bool = false) -> String {
        let metadata = spec.metadata
        var lines = [
            "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/",
            "Upstream-Name: \(spec.name)",
            "Upstream-Contact: \(metadata.maintainer)",
        ]
        if let homepage = metadata.homepage { lines.append("Source: \(homepage)") }
        let license = debianName(metadata.license)
        lines += [
            "", "Files: *", "Copyright: \(copyrightHolders(metadata, year: year(spec.mtime)))", "License: \(license)",
        ]
        if onDebian, let common = commonLicense(metadata.license) {
            lines += [
                "", "License: \(license)",
                " On Debian systems, the full text of the license can be found in",
                " /usr/share/common-licenses/\(common).",
            ]
        } else if let text = metadata.licenseText {
            lines += ["", "License: \(license)"]
            lines += formatted(text)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The file in /usr/share/common-licenses for a single SPDX license, when Debian ships it.
    package static func commonLicense(_ spdx: String) -> String? {
        let known: [String: String] = [
            "Apache-2.0": "Apache-2.0", "CC0-1.0": "CC0-1.0", "MPL-2.0": "MPL-2.0", "MPL-1.1": "MPL-1.1",
            "GPL-2.0-only": "GPL-2", "GPL-2.0-or-later": "GPL-2", "GPL-3.0-only": "GPL-3", "GPL-3.0-or-later": "GPL-3",
            "LGPL-2.1-only": "LGPL-2.1", "LGPL-2.1-or-later": "LGPL-2.1", "LGPL-3.0-only": "LGPL-3",
            "LGPL-3.0-or-later": "LGPL-3", "Artistic-1.0-Perl": "Artistic",
        ]
        return known[spdx]
    }

    /// DEP-5 spells a few licenses differently from SPDX (MIT is `Expat`) and lists alternatives
    /// with `or`.
    package static func debianName(_ spdx: String) -> String {
        spdx.split(separator: " ").map { word -> String in
            switch word {
            case "OR": return "or"
            case "AND": return "and"
            case "MIT": return "Expat"
            case "GPL-2.0-only": return "GPL-2"
            case "GPL-2.0-or-later": return "GPL-2+"
            case "GPL-3.0-only": return "GPL-3"
            case "GPL-3.0-or-later": return "GPL-3+"
            case "LGPL-2.1-only": return "LGPL-2.1"
            case "LGPL-2.1-or-later": return "LGPL-2.1+"
            case "LGPL-3.0-only": return "LGPL-3"
            case "LGPL-3.0-or-later": return "LGPL-3+"
            default: return String(word)
            }
        }.joined(separator: " ")
    }

    /// The release's year (UTC), for a notice lintian recognises when the license file names no holder.
    package static func year(_ seconds: Int) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.component(.year, from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// The license file's `Copyright …` lines, else the release's year and the maintainer.
    package static func copyrightHolders(_ metadata: PackageMetadata, year: Int) -> String {
        let found = (metadata.licenseText ?? "").split(separator: "\n").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { $0.lowercased().hasPrefix("copyright (c)") || $0.lowercased().hasPrefix("copyright ©") }
            .map { line in String(line.drop { $0 != " " }.dropFirst()).replacingOccurrences(of: "(c) ", with: "") }
        let holders = found.isEmpty ? ["\(year) \(metadata.maintainer)"] : found
        return holders.joined(separator: "\n ")
    }

    /// A field's continuation lines: each indented by one space, empty lines as ` .`.
    package static func formatted(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0).trimmingCharacters(in: .whitespaces)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        return lines.map { $0.isEmpty ? " ." : " " + $0 }
    }
}
