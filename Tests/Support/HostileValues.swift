import Foundation

/// Values a hostile contributor would put in a config field, for the emitter property tests
/// (issue 39): every quote character (ASCII, typographic, primes, full-width), line breaks of
/// every kind, NUL and other control characters, the expansion syntaxes of sh, Ruby, Nix and
/// PowerShell, YAML 1.1 traps, and one value of 10 kB. `generate` mixes them from a seed, so a
/// failure replays.
public enum HostileValues {
    public static let pieces: [String] = [
        "'", "\"", "`", "\u{2018}", "\u{2019}", "\u{201A}", "\u{201B}", "\u{201C}", "\u{201D}", "\u{201E}",
        "\u{201F}", "\u{00B4}", "\u{2032}", "\u{FF02}", "\u{FF07}", "\\", "\\\\", "$(touch PWNED)", "`touch PWNED`",
        "#{system(\"touch PWNED\")}", "${PWNED}", "$${x}", "''${x}", "$env:PWNED", "@(x)", "\n", "\r\n", "\r", "\0",
        "\t", "\u{0B}", "\u{0C}", "\u{1B}[31m", "\u{7F}", "\u{85}", "\u{9F}", "\u{A0}", "\u{2028}", "\u{2029}",
        "\u{FEFF}", "\u{200B}", ": ", " #", "# ", "- ", "? ", "<<", "12:30", "yes", "No", "ON", "~", "0755", "0x1F",
        "1_000", ".inf", "=", "!tag", "&a", "*a", "---", "...", "%YAML", "|", ">", "[", "]", "{", "}", ",", "@",
        "#>", "<#", "EOF", "''", "x < Formula; system(\"touch PWNED\"); class Y", "🙂", "e\u{301}", "ß", "\u{10FFFF}",
        " ", "  ", "a", "relctl", ";", "&&", "|", "*", "?", "!", "%", "^", "/", "..", "\u{1}",
    ]

    /// Values that break one emitter or another if it is wrong, each on its own.
    public static let fixed: [String] =
        pieces + [
            "", " leading", "trailing ", "x\n", "\n\nx\n\n", "  indented\nblock", "12:30:45", "190:20:30.15",
            "2001-12-14", "1e3", "+1", "-1", "-.inf", ".NaN", "null", "NULL", "Null", "y", "n", "Y", "N", "true",
            "False", "off", "0b101", "0o17", "a: b", "a #b", "a:", "-", "- a", "? a", "[a]", "{a}", "!a", "&a", "*a",
            ">a", "|a", "%a", "@a", "`a", "'a", "\"a", "a'b", "a''b", "'; touch PWNED; '", "\"; touch PWNED; \"",
            String(repeating: "$(x)'\"\u{2019}#{y}${z}`w`\n", count: 10_000 / 24),
        ]

    /// `count` values mixed from the pieces and random code points by a seeded generator.
    public static func generate(seed: UInt64, count: Int) -> [String] {
        var random = SeededRandom(seed)
        return (0..<count).map { _ in
            var value = ""
            for _ in 0..<(1 + random.below(6)) {
                if random.below(4) == 0 {
                    value.unicodeScalars.append(random.scalar())
                } else {
                    value += pieces[random.below(pieces.count)]
                }
            }
            return value
        }
    }
}

/// splitmix64: small, seeded, the same on every machine.
public struct SeededRandom {
    var state: UInt64
    public init(_ seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// A code point from the ranges that matter: C0/C1 controls, ASCII, Latin-1, general
    /// punctuation, the BMP, the astral planes.
    public mutating func scalar() -> Unicode.Scalar {
        let ranges: [ClosedRange<UInt32>] = [
            0...0x1F, 0x20...0x7F, 0x80...0xFF, 0x2000...0x206F, 0x100...0xD7FF,
            0xE000...0xFFFF, 0x10000...0x10FFFF,
        ]
        let range = ranges[below(ranges.count)]
        let value = range.lowerBound + UInt32(below(Int(range.upperBound - range.lowerBound) + 1))
        return Unicode.Scalar(value) ?? "x"
    }
}

/// The seed for emitter property runs: `RELCTL_EMITTER_SEED` replays one, else a fixed one in
/// `make test` (scripts/fuzz sets a fresh seed and a larger `RELCTL_EMITTER_COUNT`).
public enum EmitterRuns {
    public static var seed: UInt64 {
        ProcessInfo.processInfo.environment["RELCTL_EMITTER_SEED"].flatMap { UInt64($0) } ?? 0x5EED_0039
    }
    public static var count: Int {
        ProcessInfo.processInfo.environment["RELCTL_EMITTER_COUNT"].flatMap { Int($0) } ?? 300
    }
    /// Fixed values and generated ones, each once.
    public static func values() -> [String] {
        var seen = Set<[Unicode.Scalar]>()
        return (HostileValues.fixed + HostileValues.generate(seed: seed, count: count)).filter {
            seen.insert(Array($0.unicodeScalars)).inserted
        }
    }
}

/// Same code points in the same order (String's `==` also equates canonically equivalent text,
/// which a reader test must not).
public func sameScalars(_ a: String, _ b: String) -> Bool {
    Array(a.unicodeScalars) == Array(b.unicodeScalars)
}
