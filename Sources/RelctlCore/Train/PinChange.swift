import Foundation

/// What one pin changes (or, on a dry run, would change) in one repository.
public struct PinChange: Sendable, Encodable, Equatable {
    public var path: String
    public var line: Int
    public var old: String
    public var new: String
    public var changes: Bool { old != new }

    public var rendered: String {
        changes ? "\(path):\(line): \(old) → \(new)" : "\(path):\(line): already \(new)"
    }

    enum CodingKeys: String, CodingKey { case path, line, old, new }
}
