import Foundation
import RelctlBasics

/// The parts of YAML files relctl reads without a YAML parser: top-level keys, their block or
/// flow lists and the keys of a block map one level in. pnpm-workspace.yaml, a Dart pubspec.yaml
/// and melos.yaml keep what relctl needs in those shapes.
package enum PlainYAML {
    /// The list under the top-level `key`, block (`- 'packages/*'`) or flow (`['a/*']`) style.
    package static func topLevelList(_ key: String, in text: String) -> [String] {
        var found: [String] = []
        var inList = false
        for line in lines(text) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if let first = line.first, first != " ", first != "\t", first != "-" {
                inList = false
                guard trimmed.hasPrefix(key + ":") else { continue }
                let rest = trimmed.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces)
                if rest.hasPrefix("["), rest.hasSuffix("]") {
                    found += rest.dropFirst().dropLast().split(separator: ",").map(scalar).filter { !$0.isEmpty }
                } else {
                    inList = rest.isEmpty || rest.hasPrefix("#")
                }
                continue
            }
            if inList, trimmed.hasPrefix("-") {
                let value = scalar(trimmed.dropFirst())
                if !value.isEmpty { found.append(value) }
            }
        }
        return found
    }

    /// The top-level `key`'s scalar value (`version: 1.2.0`, `publish_to: none`), unquoted.
    package static func topLevelScalar(_ key: String, in text: String) -> String? {
        for line in lines(text) where line.hasPrefix(key + ":") {
            let value = scalar(line.dropFirst(key.count + 1))
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// The keys of the block map under the top-level `key` (pubspec's `dependencies:`), in order:
    /// the lines indented least below it, up to the next top-level line.
    package static func topLevelMapKeys(_ key: String, in text: String) -> [String] {
        var found: [String] = []
        var inMap = false
        var indent: Int?
        for line in lines(text) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let depth = line.prefix(while: { $0 == " " }).count
            if depth == 0 {
                inMap = line.hasPrefix(key + ":") && scalar(line.dropFirst(key.count + 1)).isEmpty
                indent = nil
                continue
            }
            guard inMap else { continue }
            if indent == nil { indent = depth }
            guard depth == indent, let colon = trimmed.firstIndex(of: ":") else { continue }
            let name = scalar(trimmed[..<colon])
            if !name.isEmpty { found.append(name) }
        }
        return found
    }

    /// `\r\n` is one Character in Swift: split on any line end, not on `"\n"`.
    private static func lines(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    }

    /// A plain or quoted scalar, its comment dropped.
    private static func scalar(_ text: Substring) -> String {
        var value = text.trimmingCharacters(in: .whitespaces)
        if value.hasPrefix("#") { return "" }
        if let comment = value.range(of: " #") { value = String(value[..<comment.lowerBound]) }
        value = value.trimmingCharacters(in: .whitespaces)
        if value.count >= 2, let quote = value.first, quote == "\"" || quote == "'", value.last == quote {
            value = String(value.dropFirst().dropLast())
        }
        return value
    }
}

/// A Dart package's pubspec.yaml as a workspace reads it: its name, version, whether pub ever
/// publishes it, and the packages it depends on.
package struct Pubspec: Sendable, Equatable {
    package static let fileName = "pubspec.yaml"
    package var name: String?
    package var version: String?
    /// `publish_to: none`: an example, a tool or the workspace's own root.
    package var publishedNowhere: Bool
    package var dependencies: [String]
    package var devDependencies: [String]

    package init(text: String) {
        name = PlainYAML.topLevelScalar("name", in: text)
        version = PlainYAML.topLevelScalar("version", in: text)
        publishedNowhere = PlainYAML.topLevelScalar("publish_to", in: text) == "none"
        dependencies = PlainYAML.topLevelMapKeys("dependencies", in: text)
        devDependencies = PlainYAML.topLevelMapKeys("dev_dependencies", in: text)
    }

    /// The pubspec.yaml in `folder`, nil where there is none or it cannot be read.
    package static func read(in folder: URL) -> Pubspec? {
        guard let text = try? ProjectFile.open(fileName, in: folder).text() else { return nil }
        return Pubspec(text: text)
    }

    /// The member globs a Dart repository declares: the root pubspec.yaml's `workspace:` (pub
    /// workspaces, melos 7 and later), else melos.yaml's `packages:` (melos before 7).
    package static func workspaceGlobs(root: URL) -> [String] {
        if let text = try? ProjectFile.open(fileName, in: root).text() {
            let listed = PlainYAML.topLevelList("workspace", in: text)
            if !listed.isEmpty { return listed }
        }
        if let text = try? ProjectFile.open("melos.yaml", in: root).text() {
            return PlainYAML.topLevelList("packages", in: text)
        }
        return []
    }
}
