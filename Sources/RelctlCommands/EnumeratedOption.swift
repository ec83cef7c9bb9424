import ArgumentParser
import Foundation
import RelctlModel

/// An option whose value comes from a fixed list (an algorithm, a registry's ids): a value outside
/// it is a usage error, exit 64, like ArgumentParser's own enum options (`--color`, `matrix
/// --format`), whether the list is a Swift enum or a registry extensions may add to. The message
/// lists the valid values.
enum EnumeratedOption {
    static func check(
        _ values: [String], option: String, known: [String], normalise: (String) -> String = { $0 }
    ) throws {
        for value in values where !known.contains(normalise(value)) {
            throw ValidationError(
                "The value '\(value)' is invalid for '\(option)'; use one of: \(known.joined(separator: ", "))")
        }
    }
}
