/// The part of Cargo's requirement rules relctl needs for partial requirements on own crates
/// (`0.15`, `^0.15`, `~1`): does the requirement still admit a version?
enum CargoRequirement {
    static func admits(operator op: String, text: String, version: SemanticVersion) -> Bool {
        let wanted = text.split(separator: ".").map { String($0) }
        let have = [version.major, version.minor, version.patch]
        guard !wanted.isEmpty, wanted.count <= 3, !version.isPrerelease else { return false }
        // Every written number must match, except that a caret (the default) lets the numbers
        // after the leftmost non-zero one float upwards, and a tilde lets what was not written float.
        switch op {
        case "=", "~":
            return zip(wanted, have).allSatisfy { $0 == $1 }
        default:
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
