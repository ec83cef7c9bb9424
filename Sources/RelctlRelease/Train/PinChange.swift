import Foundation
import RelctlBasics
import RelctlModel

/// What one pin changes (or, on a dry run, would change) in one repository.
struct PinChange: Sendable, Encodable, Equatable {
    var path: String
    var line: Int
    var old: String
    var new: String
    var changes: Bool { old != new }

    var rendered: String {
        changes ? "\(path):\(line): \(old) → \(new)" : "\(path):\(line): already \(new)"
    }

    enum CodingKeys: String, CodingKey { case path, line, old, new }
}
