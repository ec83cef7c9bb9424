import Foundation
import RelctlBasics
import RelctlModel

/// One file of the release: the published checksum against the rebuild's file (and the
/// published file itself when it is at hand).
struct FileComparison: Codable, Sendable, Equatable {
    enum Status: String, Codable, Sendable {
        /// The rebuild's file has the published checksum.
        case identical
        /// The rebuild's file has another checksum.
        case differs
        /// Listed in the published checksum file, not produced by the rebuild.
        case missing
        /// Produced (and listed) by the rebuild, not in the published checksum file.
        case extra
        /// The rebuild matches the published checksum, but the published file does not.
        case altered
    }

    var name: String
    var status: Status
    /// The digest the published checksum file lists.
    var published: String?
    /// The digest of the rebuild's file.
    var rebuilt: String?
    /// The digest of the published file itself, when it is not the listed one.
    var publishedFile: String?
    /// For archives: the members that differ.
    var archive: ArchiveComparison?
    /// For a text file that is not an archive: the first line that differs.
    var firstDifference: String?
    /// diffoscope's text report, when diffoscope is installed.
    var diffoscope: String?

    var isIdentical: Bool { status == .identical }

    /// One line for the text report and the error.
    var summary: String {
        func short(_ digest: String?) -> String { digest.map { String($0.prefix(12)) + "…" } ?? "-" }
        switch status {
        case .identical: return "\(name): identical"
        case .differs:
            var line = "\(name): differs (published \(short(published)), rebuilt \(short(rebuilt)))"
            if let publishedFile {
                line += "; the published file is \(short(publishedFile)), not what the checksum file lists either"
            }
            if let archive, !archive.members.isEmpty { line += "; \(archive.members.count) member(s) differ" }
            return line
        case .missing: return "\(name): listed in the published checksums, but the rebuild did not produce it"
        case .extra: return "\(name): produced by the rebuild, but not in the published checksums"
        case .altered:
            return
                "\(name): the published file (\(short(publishedFile))) is not what its checksum lists (\(short(published))); the rebuild matches the checksum, so the published file was altered after the release"
        }
    }
}

/// For a differing file that is not an archive (an SBOM, a checksum list, an installer): the
/// first line that differs, when both are small UTF-8 text files. diffoscope gives the rest.
enum TextDifference {
    static let maximumSize = 1 << 20

    static func firstLine(published: URL, rebuilt: URL) -> String? {
        guard let old = text(published), let new = text(rebuilt) else { return nil }
        let oldLines = old.split(separator: "\n", omittingEmptySubsequences: false)
        let newLines = new.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(oldLines.count, newLines.count) {
            let mine = index < newLines.count ? String(newLines[index]) : nil
            let theirs = index < oldLines.count ? String(oldLines[index]) : nil
            if mine != theirs {
                return "line \(index + 1): published \(shown(theirs)), rebuilt \(shown(mine))"
            }
        }
        return nil
    }

    private static func text(_ url: URL) -> String? {
        guard let size = FileSystem.size(of: url), size <= maximumSize, let data = FileSystem.contents(of: url)
        else { return nil }
        return String(data: data, encoding: .utf8)
    }

    /// The line quoted and cut at 120 characters, or `(none)` past the end of the file.
    private static func shown(_ line: String?) -> String {
        guard let line else { return "(none)" }
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return "`" + (trimmed.count > 120 ? String(trimmed.prefix(120)) + "…" : trimmed) + "`"
    }
}
