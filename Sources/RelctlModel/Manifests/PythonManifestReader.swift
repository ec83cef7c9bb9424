import Foundation
import RelctlBasics

/// `pyproject.toml`: PEP 621 `[project] version` or Poetry `[tool.poetry] version`; any other
/// file (hatch's `[tool.hatch.version] path`, a package's `__init__.py`): `__version__ = "…"`;
/// or what `pattern` captures. Compared by PEP 440 whichever way it is read.
package struct PythonManifestReader: ManifestReader {
    /// A string literal that is the whole value (`__version__ = "1.2.3"  # comment`, or a keyword
    /// argument, setup.py's `version="1.2.3",`): gunicorn's
    /// `__version__ = ".".join([str(v) for v in version_info])` is an expression, not version `.`.
    package static let moduleVersionPattern =
        #"^\s*(?:__version__|VERSION|version)\s*(?::\s*(?:str|(?:typing\.)?Final(?:\[str\])?)\s*)?=\s*["'](?<version>[^"'\n]+)["'][ \t]*,?[ \t]*(?:#.*)?$"#
    package var comparison: VersionComparison { .pep440 }
    package init() {}

    package func readVersion(at url: URL, source: VersionSource, displayPath: String) throws -> ManifestVersion {
        if let pattern = source.pattern {
            return try RegexManifestReader.match(pattern, in: url, displayPath: displayPath)
        }
        guard url.lastPathComponent.hasSuffix(".toml") else {
            do {
                return try RegexManifestReader.match(Self.moduleVersionPattern, in: url, displayPath: displayPath)
            } catch ManifestError.noVersion {
                if let tuple = try VersionTuple.read(in: url, displayPath: displayPath) { return tuple }
                throw ManifestError.noVersion(
                    path: displayPath,
                    hint: "expected `__version__ = \"1.2.3\"` or `version_info = (1, 2, 3)`, or give a `pattern`")
            }
        }
        let document = try TOMLDocument(file: ProjectFile.open(location: url, shown: displayPath))
        if let project = document.root["project"]?.table {
            if let version = project["version"]?.string {
                return ManifestVersion(
                    text: version, foundIn: displayPath,
                    line: ManifestText.tomlVersionLine(in: document.text, table: "project"))
            }
            if project["dynamic"]?.array?.contains(.string("version")) == true {
                throw ManifestError.dynamicVersion(path: displayPath)
            }
        }
        if let version = document.root["tool"]?.table?["poetry"]?.table?["version"]?.string {
            return ManifestVersion(
                text: version, foundIn: displayPath,
                line: ManifestText.tomlVersionLine(in: document.text, table: "tool.poetry"))
        }
        throw ManifestError.noVersion(
            path: displayPath, hint: "expected `version` under [project] (PEP 621) or [tool.poetry]")
    }
}

/// A version kept as a tuple, the form `sys.version_info` has: gunicorn's `version_info = (26, 1, 0)`
/// with `__version__` joined from it, coverage.py's `version_info = (7, 13, 0, "alpha", 0)`. Read as
/// the version it spells (`26.1.0`, `7.13.0a0`) and written back as a tuple of the same shape.
package struct VersionTuple: Sendable, Equatable {
    /// The numbers (two to four).
    package var numbers: [Int]
    /// `sys.version_info`'s release level and serial (`"alpha"`, 0), when the tuple has them.
    package var level: (word: String, serial: Int)?
    /// The quote the level is written with.
    package var quote: Character = "\""

    package static func == (a: VersionTuple, b: VersionTuple) -> Bool {
        a.numbers == b.numbers && a.level?.word == b.level?.word && a.level?.serial == b.level?.serial
            && a.quote == b.quote
    }

    static let pattern =
        #"^[ \t]*(?:__version_info__|version_info|VERSION_INFO|__version__|VERSION)[ \t]*=[ \t]*(?<tuple>\([^()\n]*\))[ \t]*(?:#.*)?$"#

    /// The PEP 440 spelling of each release level `sys.version_info` names.
    static let levels = ["alpha": "a", "beta": "b", "candidate": "rc", "rc": "rc", "final": ""]

    /// Parses `(26, 1, 0)` or `(7, 13, 0, "alpha", 0)`; nil for any other shape.
    package init?(literal: String) {
        let inner = literal.trimmingCharacters(in: .whitespaces).dropFirst().dropLast()
        var parts = inner.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.last == "" { parts.removeLast() }
        var numbers: [Int] = []
        while let first = parts.first, let number = Int(first), number >= 0 {
            numbers.append(number)
            parts.removeFirst()
        }
        guard (2...4).contains(numbers.count) else { return nil }
        self.numbers = numbers
        if parts.isEmpty { return }
        guard parts.count == 2, let quote = parts[0].first, quote == "\"" || quote == "'", parts[0].last == quote,
            parts[0].count >= 2, let serial = Int(parts[1]), serial >= 0
        else { return nil }
        let word = String(parts[0].dropFirst().dropLast())
        guard Self.levels[word] != nil else { return nil }
        (self.level, self.quote) = ((word, serial), quote)
    }

    /// The PEP 440 version the tuple spells (`7.13.0a0`).
    package var version: String {
        var text = numbers.map(String.init).joined(separator: ".")
        if let level, let suffix = Self.levels[level.word], !suffix.isEmpty { text += suffix + String(level.serial) }
        return text
    }

    /// `version` written in this tuple's shape; nil when the shape cannot hold it (a prerelease in
    /// a tuple of numbers only, a `.dev` or `.post` part, more numbers than the tuple has).
    package func spelling(of version: String) -> String? {
        guard let pep = PEP440Version(version), pep.epoch == "0", pep.dev == nil, pep.post == nil, pep.local == nil,
            pep.release.count <= numbers.count
        else { return nil }
        var parts = pep.release + Array(repeating: "0", count: numbers.count - pep.release.count)
        if level != nil {
            var word = "final"
            var serial = "0"
            if let pre = pep.pre {
                word = ["a": "alpha", "b": "beta", "rc": level?.word == "rc" ? "rc" : "candidate"][pre.phase.rawValue]
                    ?? "candidate"
                serial = pre.number
            }
            parts += [String(quote) + word + String(quote), serial]
        } else if pep.pre != nil {
            return nil
        }
        return "(" + parts.joined(separator: ", ") + ")"
    }

    /// The tuple assignment in the module at `url`, read as its version; nil when there is none.
    static func read(in url: URL, displayPath: String) throws -> ManifestVersion? {
        let text = try ManifestText.read(url, displayPath: displayPath)
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines]) else { return nil }
        for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let range = Range(match.range(withName: "tuple"), in: text),
                let tuple = VersionTuple(literal: String(text[range]))
            else { continue }
            return ManifestVersion(
                text: tuple.version, foundIn: displayPath, line: ManifestText.line(of: range.lowerBound, in: text),
                tuple: String(text[range]))
        }
        return nil
    }
}
