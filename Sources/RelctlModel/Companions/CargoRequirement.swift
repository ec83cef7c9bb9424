import RelctlBasics

/// The part of Cargo's requirement rules relctl needs for requirements on own crates
/// (`0.15.1`, `=0.15.1`, `^0.15`, `~1.2.3`): does the requirement still admit a version?
package enum CargoRequirement {
    package static func admits(operator op: String, text: String, version: SemanticVersion) -> Bool {
        let wanted = text.split(separator: ".", omittingEmptySubsequences: false).map { String($0) }
        let have = [version.major, version.minor, version.patch]
        // Cargo admits a prerelease only to a requirement naming a prerelease of the same version.
        guard !wanted.isEmpty, wanted.count <= 3, wanted.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }),
            !version.isPrerelease
        else { return false }
        switch op {
        case "=":
            // `=1.2` is >=1.2.0, <1.3.0; `=1.2.3` is exactly 1.2.3.
            return zip(wanted, have).allSatisfy { $0 == $1 }
        case "~":
            // `~1` is <2.0.0, `~1.2` and `~1.2.3` are <1.3.0; written numbers are minimums.
            let fixed = min(wanted.count, 2)
            guard zip(wanted.prefix(fixed), have.prefix(fixed)).allSatisfy({ $0 == $1 }) else { return false }
            return wanted.count < 3 || !SemanticVersion.lessNumber(have[2], wanted[2])
        default:
            // Caret (the default): the numbers up to the leftmost non-zero one are fixed, the
            // rest are minimums.
            let significant = wanted.firstIndex(where: { $0 != "0" }) ?? wanted.count - 1
            for index in wanted.indices {
                if index <= significant {
                    guard wanted[index] == have[index] else { return false }
                } else if SemanticVersion.lessNumber(have[index], wanted[index]) {
                    return false
                } else if have[index] != wanted[index] {
                    return true
                }
            }
            return true
        }
    }
}
