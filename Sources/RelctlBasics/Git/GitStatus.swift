import Foundation

/// One `git status --porcelain=v2 --branch` read: the branch, its upstream and how far apart they
/// are, and the uncommitted paths. The release preflight needs all four; one call gives them.
package struct GitStatus: Sendable, Equatable {
    /// The checked-out branch; nil on a detached HEAD.
    package var branch: String?
    package var upstream: String?
    package var ahead = 0
    package var behind = 0
    /// Uncommitted paths as `git status --short` shows them (`?? new.txt`, ` M changed.txt`).
    package var dirty: [String] = []

    /// Parses porcelain v2 output (headers `# branch.*`, then one line per path).
    package init(porcelainV2 text: String) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("# branch.head ") {
                let name = String(line.dropFirst("# branch.head ".count))
                branch = name == "(detached)" ? nil : name
            } else if line.hasPrefix("# branch.upstream ") {
                upstream = String(line.dropFirst("# branch.upstream ".count))
            } else if line.hasPrefix("# branch.ab ") {
                let numbers = line.dropFirst("# branch.ab ".count).split(separator: " ").compactMap {
                    Int($0.dropFirst())
                }
                if numbers.count == 2 { (ahead, behind) = (numbers[0], numbers[1]) }
            } else if let entry = Self.shortForm(line) {
                dirty.append(entry)
            }
        }
    }

    /// A v2 entry in the familiar short form: `1 .M … path` becomes ` M path`, `? path` `?? path`.
    private static func shortForm(_ line: Substring) -> String? {
        let fields = line.split(separator: " ", omittingEmptySubsequences: false)
        guard let kind = fields.first else { return nil }
        // Fields before the path: ordinary 8, renamed or copied 9, unmerged 10.
        let pathField: Int
        switch kind {
        case "?": return "?? " + line.dropFirst(2)
        case "1": pathField = 8
        case "2": pathField = 9
        case "u": pathField = 10
        default: return nil
        }
        guard fields.count > pathField else { return nil }
        let code = fields[1].replacingOccurrences(of: ".", with: " ")
        var path = fields[pathField...].joined(separator: " ")
        // A rename is `path<TAB>original`.
        if kind == "2", let tab = path.firstIndex(of: "\t") {
            path = "\(path[path.index(after: tab)...]) -> \(path[..<tab])"
        }
        return "\(code) \(path)"
    }
}
