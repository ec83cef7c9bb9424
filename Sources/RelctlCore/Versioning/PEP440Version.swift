/// A Python package version under PEP 440, reduced to the parts relctl compares with a tag:
/// release numbers, pre-release phase, post and dev releases, and local label.
public struct PEP440Version: Sendable, Hashable, CustomStringConvertible {
    public var epoch: Int
    public var release: [String]
    public var pre: (phase: String, number: String)?
    public var post: String?
    public var dev: String?
    public var local: String?

    /// PEP 440 pads release segments with zeros before comparing: `1.2` equals `1.2.0`.
    public static func == (a: PEP440Version, b: PEP440Version) -> Bool { a.comparisonKey == b.comparisonKey }
    public func hash(into hasher: inout Hasher) { hasher.combine(comparisonKey) }

    private var comparisonKey: String {
        var padded = self
        while padded.release.count > 1, padded.release.last == "0" { padded.release.removeLast() }
        return padded.description
    }

    /// Parses and normalises a PEP 440 version (`1.2.3RC1`, `v1.2.3-rc.1`, `1.2.3.post2`…); nil if it is not one.
    public init?(_ raw: String) {
        var text = Substring(raw.trimmingCharacters(in: .whitespaces).lowercased())
        if text.first == "v" { text = text.dropFirst() }
        epoch = 0
        if let bang = text.firstIndex(of: "!") {
            guard let e = Int(text[..<bang]) else { return nil }
            epoch = e
            text = text[text.index(after: bang)...]
        }
        if let plus = text.firstIndex(of: "+") {
            let label = text[text.index(after: plus)...]
            guard !label.isEmpty else { return nil }
            local = label.replacingOccurrences(of: "-", with: ".").replacingOccurrences(of: "_", with: ".")
            text = text[..<plus]
        }
        var scanner = Scanner440(text)
        var numbers: [String] = []
        guard let first = scanner.number() else { return nil }
        numbers.append(first)
        while scanner.peek(".") && scanner.peekNumber(afterSeparator: true) {
            scanner.advance()
            numbers.append(scanner.number()!)
        }
        release = numbers.map { String($0.drop(while: { $0 == "0" }).isEmpty ? "0" : $0.drop(while: { $0 == "0" })) }
        let phases: [(String, String)] = [("alpha", "a"), ("beta", "b"), ("preview", "rc"), ("pre", "rc"), ("rc", "rc"), ("c", "rc"), ("a", "a"), ("b", "b")]
        scanner.skipSeparator()
        if let (_, canonical) = phases.first(where: { scanner.consume($0.0) }) {
            scanner.skipSeparator()
            pre = (canonical, Self.trim(scanner.number() ?? "0"))
        }
        scanner.skipSeparator()
        if scanner.consume("post") || scanner.consume("rev") || scanner.consume("r") {
            scanner.skipSeparator()
            post = Self.trim(scanner.number() ?? "0")
        }
        scanner.skipSeparator()
        if scanner.consume("dev") {
            scanner.skipSeparator()
            dev = Self.trim(scanner.number() ?? "0")
        }
        guard scanner.atEnd else { return nil }
    }

    /// The PEP 440 spelling of a SemVer version, when one exists: `1.2.3-rc.1` → `1.2.3rc1`,
    /// `1.0.0-alpha.2` → `1.0.0a2`, `1.0.0-dev.3` → `1.0.0.dev3`.
    public init?(semver: SemanticVersion) {
        var text = "\(semver.major).\(semver.minor).\(semver.patch)"
        let ids = semver.prerelease.map(\.description)
        var index = 0
        while index < ids.count {
            let id = ids[index].lowercased()
            let next: String? = index + 1 < ids.count && semver.prerelease[index + 1].number != nil ? ids[index + 1] : nil
            let mapped: String
            switch id {
            case "alpha", "a": mapped = "a"
            case "beta", "b": mapped = "b"
            case "rc", "c", "pre", "preview": mapped = "rc"
            case "post": mapped = ".post"
            case "dev": mapped = ".dev"
            default:
                // `rc1`, `a2` written as one identifier also map.
                if let parsed = PEP440Version("0" + id), parsed.release == ["0"] {
                    text += parsed.description.dropFirst(1)
                    index += 1
                    continue
                }
                return nil
            }
            var counter = "0"
            if let next { counter = next }
            text += mapped
            text += counter
            index += next == nil ? 1 : 2
        }
        if !semver.build.isEmpty { text += "+" + semver.build.joined(separator: ".") }
        self.init(text)
    }

    private static func trim(_ digits: String) -> String {
        let trimmed = digits.drop(while: { $0 == "0" })
        return trimmed.isEmpty ? "0" : String(trimmed)
    }

    /// The normalised form (`1.2.3rc1.post2.dev3+local`), as `packaging.version` prints it.
    public var description: String {
        var text = epoch == 0 ? "" : "\(epoch)!"
        text += release.joined(separator: ".")
        if let pre { text += pre.phase + pre.number }
        if let post { text += ".post" + post }
        if let dev { text += ".dev" + dev }
        if let local { text += "+" + local }
        return text
    }
}

private struct Scanner440 {
    private var rest: Substring
    init(_ text: Substring) { rest = text }
    var atEnd: Bool { rest.isEmpty }
    func peek(_ s: String) -> Bool { rest.hasPrefix(s) }
    func peekNumber(afterSeparator: Bool) -> Bool {
        let after = afterSeparator ? rest.dropFirst() : rest
        return after.first.map { $0.isASCII && $0.isNumber } ?? false
    }
    mutating func advance() { rest = rest.dropFirst() }
    mutating func number() -> String? {
        let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
        guard !digits.isEmpty else { return nil }
        rest = rest.dropFirst(digits.count)
        return String(digits)
    }
    mutating func consume(_ word: String) -> Bool {
        guard rest.hasPrefix(word) else { return false }
        rest = rest.dropFirst(word.count)
        return true
    }
    mutating func skipSeparator() {
        if let c = rest.first, c == "." || c == "-" || c == "_" { rest = rest.dropFirst() }
    }
}
