import Foundation
import RelctlBasics
import RelctlModel

/// The waves a train would release, for `relctl train plan`.
public struct TrainPlan: Sendable, Encodable {
    var tag: String
    var workspace: String
    var waves: [[Workspace.Repository]]

    public init(tag: String, workspace: Workspace) {
        self.tag = tag
        self.workspace = workspace.path
        self.waves = workspace.waves()
    }

    public func rendered() -> String {
        let count = waves.reduce(0) { $0 + $1.count }
        var lines = [
            "train \(tag): \(count) repositor\(count == 1 ? "y" : "ies") in \(waves.count) wave\(waves.count == 1 ? "" : "s") (\(workspace))"
        ]
        for (index, wave) in waves.enumerated() {
            let names = wave.map { repository in
                var details = [repository.path]
                if !repository.after.isEmpty { details.append("after \(repository.after.joined(separator: ", "))") }
                if !repository.pins.isEmpty {
                    details.append("pins \(repository.pins.map(\.path).joined(separator: ", "))")
                }
                return "\(repository.name) (\(details.joined(separator: ", ")))"
            }
            lines.append("  wave \(index + 1): " + names.joined(separator: ", "))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
