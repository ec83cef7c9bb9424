import RelctlBasics

/// A SemVer 2.0.0 version, parsed strictly and ordered by the spec's precedence rules.
public struct SemanticVersion: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    /// One dot-separated prerelease identifier. Numeric ones keep their digits as text so
    /// arbitrarily large numbers compare correctly without overflow.
    package enum Identifier: Sendable, Hashable, Comparable, CustomStringConvertible {
        case numeric(String)
        case alphanumeric(String)

        public var description: String {
            switch self {
            case .numeric(let digits): return digits
            case .alphanumeric(let text): return text
            }
        }

        package static func < (lhs: Identifier, rhs: Identifier) -> Bool {
            switch (lhs, rhs) {
            case let (.numeric(a), .numeric(b)):
                return a.count != b.count ? a.count < b.count : a < b
            case (.numeric, .alphanumeric):
                return true
            case (.alphanumeric, .numeric):
                return false
            case let (.alphanumeric(a), .alphanumeric(b)):
                // ASCII order, as the spec says: compare bytes, not Unicode collation.
                return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
            }
        }

        /// A counter glued to a name (`rc1`, `beta12`, as alacritty spells its prereleases): the
        /// name (letters and `-`, ending in a letter, or in a letter and `-`: `beta-8`) and the number;
        /// nil for anything else.
        package static func glued(_ word: String) -> (name: String, number: Int)? {
            guard let digitStart = word.firstIndex(where: { $0.isASCII && $0.isNumber }),
                digitStart != word.startIndex
            else { return nil }
            let name = word[..<digitStart], digits = word[digitStart...]
            // mocha's release-please tags `v12.0.0-beta-8`: the hyphen is part of the spelling kept.
            let named = name.last?.isLetter == true || (name.last == "-" && name.dropLast().last?.isLetter == true)
            guard named, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-") }),
                digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.count <= 9, let number = Int(digits)
            else { return nil }
            return (String(name), number)
        }

        /// The value of a numeric identifier when it fits, for bumping counters.
        package var number: Int? {
            if case .numeric(let digits) = self { return Int(digits) }
            return nil
        }
    }

    package var major: String
    package var minor: String
    package var patch: String
    package var prerelease: [Identifier]
    package var build: [String]

    package init(major: Int, minor: Int, patch: Int, prerelease: [Identifier] = [], build: [String] = []) {
        self.major = String(major)
        self.minor = String(minor)
        self.patch = String(patch)
        self.prerelease = prerelease
        self.build = build
    }

    /// Parses `text` strictly; throws `VersionError.malformed` explaining the first rule broken.
    package init(parsing text: String) throws {
        func fail(_ why: String) -> VersionError { .malformed(text, why) }
        guard !text.isEmpty else { throw fail("it is empty") }
        var rest = Substring(text)
        var buildPart: Substring?
        if let plus = rest.firstIndex(of: "+") {
            buildPart = rest[rest.index(after: plus)...]
            rest = rest[..<plus]
        }
        var prereleasePart: Substring?
        if let dash = rest.firstIndex(of: "-") {
            prereleasePart = rest[rest.index(after: dash)...]
            rest = rest[..<dash]
        }
        let core = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard core.count == 3 else {
            throw fail("it needs exactly three numbers MAJOR.MINOR.PATCH, found \(core.count)")
        }
        var numbers: [String] = []
        for (name, part) in zip(["major", "minor", "patch"], core) {
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw fail("the \(name) version `\(part)` is not a number")
            }
            guard part == "0" || part.first != "0" else {
                throw fail("the \(name) version `\(part)` has a leading zero")
            }
            numbers.append(String(part))
        }
        var identifiers: [Identifier] = []
        if let prereleasePart {
            for part in prereleasePart.split(separator: ".", omittingEmptySubsequences: false) {
                guard !part.isEmpty else { throw fail("it has an empty prerelease identifier") }
                guard part.allSatisfy(Self.isIdentifierCharacter) else {
                    throw fail("the prerelease identifier `\(part)` may only hold [0-9A-Za-z-]")
                }
                if part.allSatisfy({ $0.isASCII && $0.isNumber }) {
                    guard part == "0" || part.first != "0" else {
                        throw fail("the numeric prerelease identifier `\(part)` has a leading zero")
                    }
                    identifiers.append(.numeric(String(part)))
                } else {
                    identifiers.append(.alphanumeric(String(part)))
                }
            }
        }
        var metadata: [String] = []
        if let buildPart {
            for part in buildPart.split(separator: ".", omittingEmptySubsequences: false) {
                guard !part.isEmpty else { throw fail("it has an empty build identifier") }
                guard part.allSatisfy(Self.isIdentifierCharacter) else {
                    throw fail("the build identifier `\(part)` may only hold [0-9A-Za-z-]")
                }
                metadata.append(String(part))
            }
        }
        major = numbers[0]
        minor = numbers[1]
        patch = numbers[2]
        prerelease = identifiers
        build = metadata
    }

    private static func isIdentifierCharacter(_ c: Character) -> Bool {
        c.isASCII && (c.isLetter || c.isNumber || c == "-")
    }

    public var isPrerelease: Bool { !prerelease.isEmpty }

    /// The same version without prerelease and build parts.
    package var final: SemanticVersion {
        var copy = self
        copy.prerelease = []
        copy.build = []
        return copy
    }

    public var description: String {
        var text = "\(major).\(minor).\(patch)"
        if !prerelease.isEmpty { text += "-" + prerelease.map(\.description).joined(separator: ".") }
        if !build.isEmpty { text += "+" + build.joined(separator: ".") }
        return text
    }

    /// A release candidate (`-rc.1`, `-rc1`, PEP 440's `rc1`): a candidate for its final, which a
    /// manifest still holding it after its tag means to release. Alphas and betas are not: a
    /// project on a beta line (pydantic's `2.14.0b1`) goes on to the next beta.
    package var isReleaseCandidate: Bool {
        guard case .alphanumeric(let word)? = prerelease.first else { return false }
        let lower = word.lowercased()
        return lower == "rc" || (lower.hasPrefix("rc") && lower.dropFirst(2).allSatisfy(\.isNumber))
    }

    /// A tag that opens a version's development rather than releasing a prerelease of it: one
    /// identifier, `dev`, `pre` or `snapshot`, with no counter (grpc-go's `v1.80.0-dev`, tagged on
    /// master as 1.80 begins). Such a tag is followed by its final, not by `-dev.1`.
    package var isDevelopmentTag: Bool {
        // mvdan/sh tags `v3.6.0-0.dev` the day 3.5.0 ships, so Go's pseudo-versions sort above
        // it: each was followed by its final, never by a `-1.dev`.
        if prerelease.count == 2, prerelease[0] == .numeric("0"), case .alphanumeric(let word) = prerelease[1] {
            return word.lowercased() == "dev"
        }
        guard case .alphanumeric(let word)? = prerelease.first else { return false }
        // PEP 440's `.dev0` tag (pytest tags `8.5.0.dev0` on `main` as 8.5's work begins) reads
        // as `-dev.0`: the same opening of a version's development, not a counter to continue.
        if prerelease.count == 2 { return word.lowercased() == "dev" && prerelease[1] == .numeric("0") }
        // Kubernetes projects tag `v0.10.0-devel` on main as the cycle opens (jobset, twelve of
        // them); PEP 440's `.dev0` glued (`6.3.0-dev0`) is the same opening.
        let lower = word.lowercased()
        return prerelease.count == 1 && (["dev", "pre", "snapshot", "devel"].contains(lower) || lower == "dev0")
    }

    /// A development marker: a prerelease naming no release of its own but the work towards its
    /// final (`0.18.0-dev`, `-dev.2`, `-dev0`, `-devel`, `-pre`, `-snapshot`, `-wip`, `-alpha.0`, `-0`), as PEP 440's `.dev`
    /// does. The next release of a manifest holding one is its final.
    package var isDevelopmentMarker: Bool {
        guard let first = prerelease.first else { return false }
        switch first {
        case .numeric(let digits):
            return prerelease.count == 1 && digits == "0"
        case .alphanumeric(let word):
            let lower = word.lowercased()
            // `wip`: the Dart team's work in progress (dart-lang/http's `1.1.0-wip` in pubspec.yaml).
            // `devel` (community.hashi_vault's galaxy.yml `4.3.0-devel`).
            if ["dev", "pre", "snapshot", "wip", "devel"].contains(lower) {
                return prerelease.dropFirst().allSatisfy { $0.number != nil }
            }
            // A counter glued on (amazon.aws' `11.0.0-dev0`, PEP 440's spelling in a galaxy.yml).
            if prerelease.count == 1, let glued = Identifier.glued(lower), ["dev", "devel"].contains(glued.name) {
                return true
            }
            return lower == "alpha" && prerelease.count == 2 && prerelease[1] == .numeric("0")
        }
    }

    /// The name of a prerelease's line: its first identifier without a counter glued to it
    /// (`rc` for `-rc.2` and `-rc2`, `next` for `-next.4`); nil for a final or a numeric first one.
    package var prereleaseName: String? {
        guard case .alphanumeric(let word)? = prerelease.first else { return nil }
        return Identifier.glued(word)?.name ?? word
    }

    /// A digit string plus one, however long (`"9"` → `"10"`).
    package static func increment(_ digits: String) -> String {
        var bytes = Array(digits.utf8)
        var index = bytes.count - 1
        while index >= 0 {
            if bytes[index] == UInt8(ascii: "9") {
                bytes[index] = UInt8(ascii: "0"); index -= 1
            } else {
                bytes[index] += 1; return String(decoding: bytes, as: UTF8.self)
            }
        }
        return "1" + String(decoding: bytes, as: UTF8.self)
    }

    /// Numeric order of two digit strings without leading zeros, however long.
    package static func lessNumber(_ a: String, _ b: String) -> Bool {
        a.count != b.count ? a.count < b.count : a < b
    }

    /// Precedence per SemVer 2.0.0 §11; build metadata is ignored.
    public static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        for (a, b) in [(lhs.major, rhs.major), (lhs.minor, rhs.minor), (lhs.patch, rhs.patch)] where a != b {
            return a.count != b.count ? a.count < b.count : a < b
        }
        switch (lhs.prerelease.isEmpty, rhs.prerelease.isEmpty) {
        case (true, true), (true, false): return false
        case (false, true): return true
        case (false, false):
            for (a, b) in zip(lhs.prerelease, rhs.prerelease) where a != b { return a < b }
            return lhs.prerelease.count < rhs.prerelease.count
        }
    }

    /// Equal precedence: build metadata does not count, as the spec says.
    package func hasSamePrecedence(as other: SemanticVersion) -> Bool {
        !(self < other) && !(other < self)
    }

    /// The version with each prerelease identifier that glues a counter to its name split in
    /// two (`0.22.1-rc0` → `0.22.1-rc.0`): one release in two spellings, as a branch names
    /// it (`v0.22.1-rc0`) and as PEP 440 tags it (`v0.22.1rc0`, read as `-rc.0`).
    package var unglued: SemanticVersion {
        var copy = self
        copy.prerelease = prerelease.flatMap { identifier -> [Identifier] in
            guard case .alphanumeric(let word) = identifier, let (name, number) = Identifier.glued(word),
                name.last?.isLetter == true
            else { return [identifier] }
            return [.alphanumeric(name), .numeric(String(number))]
        }
        return copy
    }

    /// Hashing and `==` include build metadata (two spellings are different versions);
    /// use `hasSamePrecedence` for ordering equality.
    public static func == (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        lhs.major == rhs.major && lhs.minor == rhs.minor && lhs.patch == rhs.patch
            && lhs.prerelease == rhs.prerelease && lhs.build == rhs.build
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        try self.init(parsing: text)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
