import RelctlBasics

/// The part of npm's range grammar a workspace needs to tell whether a plain range on a member's
/// package name is that member (npm links a workspace package only when its version satisfies
/// the range; otherwise it installs the registry's) and how to raise one after a release.
package enum NpmRange {
    private typealias Triple = (Int, Int, Int)

    /// Whether `range` admits `version`: alternatives (`||`) of space-separated comparators with
    /// `^ ~ = < <= > >=` or none, partial versions and `x`/`*` wildcards. Nil for what it does not
    /// read (hyphen ranges, tags such as `latest`, URLs): the caller treats those as not a member.
    package static func satisfies(_ range: String, _ version: SemanticVersion) -> Bool? {
        guard let have = triple(version) else { return nil }
        var any = false
        for alternative in range.components(separatedBy: "||") {
            let comparators = alternative.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            if comparators.contains("-") { return nil }
            var all = true
            for comparator in comparators.isEmpty ? ["*"] : comparators {
                guard let bounds = bounds(of: comparator) else { return nil }
                if let low = bounds.low, less(have, low.0) || (!low.inclusive && equal(have, low.0)) { all = false }
                if let high = bounds.high, less(high.0, have) || (!high.inclusive && equal(have, high.0)) {
                    all = false
                }
            }
            if all { any = true }
        }
        return any
    }

    /// A simple range's operator and version (`^1.2.0` → `^`, `1.2.0`), or nil for anything else
    /// (several comparators, wildcards, `workspace:`, paths): only those are raised on a release.
    package static func simple(_ range: String) -> (operator: String, version: String)? {
        let trimmed = range.trimmingCharacters(in: .whitespaces)
        let op = [">=", "^", "~", "="].first { trimmed.hasPrefix($0) } ?? ""
        let rest = String(trimmed.dropFirst(op.count)).trimmingCharacters(in: .whitespaces)
        let core = rest.prefix(while: { $0 != "-" && $0 != "+" })
        let numbers = core.split(separator: ".", omittingEmptySubsequences: false)
        guard !numbers.isEmpty, numbers.count <= 3,
            numbers.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            core.count == rest.count || numbers.count == 3
        else { return nil }
        return (op, rest)
    }

    private static func triple(_ version: SemanticVersion) -> Triple? {
        guard let a = Int(version.major), let b = Int(version.minor), let c = Int(version.patch) else { return nil }
        return (a, b, c)
    }

    private static func less(_ a: Triple, _ b: Triple) -> Bool { a < b }
    private static func equal(_ a: Triple, _ b: Triple) -> Bool { a == b }

    private typealias Bound = (Triple, inclusive: Bool)

    /// One comparator as a lower and an upper bound (either may be open).
    private static func bounds(of comparator: String) -> (low: Bound?, high: Bound?)? {
        let op = ["<=", ">=", "<", ">", "^", "~", "="].first { comparator.hasPrefix($0) } ?? ""
        var text = Substring(comparator.dropFirst(op.count))
        if text.hasPrefix("v") { text = text.dropFirst() }
        let core = text.prefix(while: { $0 != "-" && $0 != "+" })
        var parts: [Int] = []
        for piece in core.split(separator: ".", omittingEmptySubsequences: false) {
            if ["x", "X", "*"].contains(piece) { break }
            guard let number = Int(piece) else { return nil }
            parts.append(number)
        }
        guard parts.count <= 3 else { return nil }
        let precision = parts.count
        let floor: Triple = (parts.first ?? 0, parts.count > 1 ? parts[1] : 0, parts.count > 2 ? parts[2] : 0)
        // The first version past what a partial version names (`1.2` → 1.3.0, `1` → 2.0.0).
        func past(_ digits: Int) -> Triple {
            switch digits {
            case 1: return (floor.0 + 1, 0, 0)
            case 2: return (floor.0, floor.1 + 1, 0)
            default: return (floor.0, floor.1, floor.2 + 1)
            }
        }
        if precision == 0 { return op.hasPrefix("<") || op == ">" ? nil : (nil, nil) }
        switch op {
        case "^":
            let fixed = floor.0 > 0 || precision == 1 ? 1 : floor.1 > 0 || precision == 2 ? 2 : 3
            return ((floor, true), (past(fixed), false))
        case "~":
            return ((floor, true), (past(precision == 1 ? 1 : 2), false))
        case ">=": return ((floor, true), nil)
        case ">": return precision == 3 ? ((floor, false), nil) : ((past(precision), true), nil)
        case "<": return (nil, (floor, false))
        case "<=": return precision == 3 ? (nil, (floor, true)) : (nil, (past(precision), false))
        default:
            return precision == 3 ? ((floor, true), (floor, true)) : ((floor, true), (past(precision), false))
        }
    }
}
