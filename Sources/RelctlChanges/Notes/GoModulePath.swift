import Foundation
import RelctlBasics

/// go.mod's module path and the majors Go lets it release: from v2 on, the major is part of the
/// path (`example.com/tool/v2`), so a module whose path has no such suffix takes 0.x and 1.x only
/// (`go get example.com/tool@v2.0.0` is refused: the module path must match the major version).
/// `bump` reads it so that it never proposes a tag Go cannot use (docs/versions.md). A `gopkg.in`
/// path names its major after a dot (`gopkg.in/yaml.v3`).
package struct GoModulePath: Sendable, Equatable {
    package var path: String
    /// The major the path's suffix names (`/v2` → 2); nil without one.
    package var suffixMajor: Int?

    /// The module path of the go.mod in `root`; nil without one.
    package static func read(root: URL) throws -> GoModulePath? {
        let file = try ProjectFile.open("go.mod", in: root)
        guard file.isRegularFile, let text = try file.text() else { return nil }
        return parse(text)
    }

    /// The `module` directive of go.mod `text` (quoted or not, comments after it allowed). A
    /// `gopkg.in` path names its major after a dot (`gopkg.in/yaml.v3`, v0 and v1 too).
    package static func parse(_ text: String) -> GoModulePath? {
        for line in text.split(whereSeparator: \.isNewline) {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count >= 2, words[0] == "module" else { continue }
            let path = words[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"`"))
            guard !path.isEmpty else { return nil }
            let gopkg = path.hasPrefix("gopkg.in/")
            let separator: Character = gopkg ? "." : "/"
            guard path.contains("/"), let cut = path.lastIndex(of: separator) else {
                return GoModulePath(path: path, suffixMajor: nil)
            }
            let last = path[path.index(after: cut)...]
            guard last.count > 1, last.hasPrefix("v"), let number = Int(last.dropFirst()),
                String(number) == last.dropFirst(), gopkg || number >= 2
            else { return GoModulePath(path: path, suffixMajor: nil) }
            return GoModulePath(path: path, suffixMajor: number)
        }
        return nil
    }

    /// The path without its major suffix (`example.com/tool/v2` → `example.com/tool`,
    /// `gopkg.in/yaml.v3` → `gopkg.in/yaml`).
    package var basePath: String {
        guard let suffixMajor else { return path }
        return String(path.dropLast("/v\(suffixMajor)".count))
    }

    /// The path naming `major` (`/v3`, `.v3` for gopkg.in).
    package func path(forMajor major: String) -> String {
        basePath + (path.hasPrefix("gopkg.in/") ? ".v" : "/v") + major
    }

    /// Whether a release whose major is `major` can be this module's.
    package func allows(major: String) -> Bool {
        if let suffixMajor { return major == String(suffixMajor) }
        return major == "0" || major == "1"
    }
}
