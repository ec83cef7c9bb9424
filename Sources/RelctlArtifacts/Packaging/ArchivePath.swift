import Foundation
import RelctlBasics

/// Normalises and checks paths inside the archive folder.
package enum ArchivePath {
    /// `./a//b/` → `a/b`; refuses absolute paths, `..` escapes and control characters.
    package static func normalize(_ raw: String, what: String) throws -> String {
        if raw.hasPrefix("/") || raw.hasPrefix("\\") {
            throw PackagingError.unsafePath(
                path: raw, reason: "is absolute (\(what)); use a path relative to the archive folder")
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
    package static func checkName(_ path: String) throws {
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
            throw PackagingError.controlCharacter(path: path)
        }
        try checkComponentLengths(path)
        if path.contains("\\") {
            throw PackagingError.unsafePath(
                path: path,
                reason:
                    "contains a backslash, which Windows reads as a folder separator (it could leave the archive folder there); rename the file or exclude it"
            )
        }
    }

    /// Refuses a path component over 255 bytes: no common file system can create it, so the
    /// archive could not be extracted.
    package static func checkComponentLengths(_ path: String) throws {
        if let long = path.split(separator: "/").first(where: { $0.utf8.count > 255 }) {
            throw PackagingError.unsafePath(
                path: path,
                reason:
                    "has a name of \(long.utf8.count) bytes (`\(long.prefix(40))…`); file systems hold at most 255, so it could not be extracted"
            )
        }
    }

    /// What relctl adds to an archive's file name for the files it writes beside it, at the
    /// longest: the hidden temporary of its SBOM, `.NAME.cdx.json.relctl-tmp-4294967295`.
    package static let siblingOverhead = ".".utf8.count + ".cdx.json".utf8.count + ".relctl-tmp-".utf8.count + 10

    /// The longest archive file name (`NAME.tar.gz`) relctl can write with everything beside it.
    package static let maximumArchiveFileName = 255 - siblingOverhead

    /// Refuses an archive file name that fits in 255 bytes alone but not once relctl writes its
    /// checksum, SBOM and their temporaries beside it: `package` would fail half-way.
    package static func checkArchiveFileName(_ fileName: String) throws {
        let length = fileName.utf8.count
        guard length > maximumArchiveFileName else { return }
        throw PackagingError.unsafePath(
            path: fileName,
            reason:
                "is \(length) bytes; relctl writes files named after it (`.\u{2026}.cdx.json.relctl-tmp-N`, \(siblingOverhead) bytes more) and a file name holds at most 255 bytes: shorten [archive] name or the project name so the archive's name stays within \(maximumArchiveFileName) bytes"
        )
    }

    /// Why Windows could not create `path` on extraction, or nil: reserved device names (`CON`,
    /// `aux.txt`), names ending in a dot or a space, and the characters `<>:"|?*`.
    package static func windowsProblem(_ path: String) -> String? {
        for component in path.split(separator: "/") {
            if let bad = component.first(where: { "<>:\"|?*".contains($0) }) {
                return "`\(component)` contains `\(bad)`"
            }
            if component.hasSuffix(".") || component.hasSuffix(" ") {
                return "`\(component)` ends with a dot or a space"
            }
            let stem =
                component.split(separator: ".", maxSplits: 1).first.map {
                    $0.uppercased().trimmingCharacters(in: .whitespaces)
                } ?? ""
            if reservedWindowsNames.contains(stem) { return "`\(component)` is a reserved device name on Windows" }
        }
        return nil
    }

    package static let reservedWindowsNames: Set<String> = Set(
        ["CON", "PRN", "AUX", "NUL"] + (1...9).flatMap { ["COM\($0)", "LPT\($0)"] })

    package static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    package static func join(_ a: String, _ b: String) -> String {
        a.isEmpty ? b : b.isEmpty ? a : a + "/" + b
    }
}
