import Foundation

/// Normalises and checks paths inside the archive folder.
enum ArchivePath {
    /// `./a//b/` → `a/b`; refuses absolute paths, `..` escapes and control characters.
    static func normalize(_ raw: String, what: String) throws -> String {
        if raw.hasPrefix("/") || raw.hasPrefix("\\") {
            throw PackagingError.unsafePath(path: raw, reason: "is absolute (\(what)); use a path relative to the archive folder")
        }
        var parts: [Substring] = []
        for part in raw.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                guard !parts.isEmpty else {
                    throw PackagingError.unsafePath(path: raw, reason: "leaves the archive folder with `..` (\(what))")
                }
                parts.removeLast()
                continue
            }
            parts.append(part)
        }
        let path = parts.joined(separator: "/")
        try checkName(path)
        return path
    }

    /// Refuses control characters and backslashes: Windows (Explorer, tar.exe, most unzip
    /// tools there) reads `\` as a folder separator, so `a\..\..\x` would land outside the folder.
    static func checkName(_ path: String) throws {
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
            throw PackagingError.controlCharacter(path: path)
        }
        if path.contains("\\") {
            throw PackagingError.unsafePath(path: path, reason: "contains a backslash, which Windows reads as a folder separator (it could leave the archive folder there); rename the file or exclude it")
        }
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    static func join(_ a: String, _ b: String) -> String {
        a.isEmpty ? b : b.isEmpty ? a : a + "/" + b
    }
}
