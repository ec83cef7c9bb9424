import Foundation
import RelctlBasics
import RelctlModel

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
