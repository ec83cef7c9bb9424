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

/// One repository of a train as the train found it before doing anything: where it pushes, what
/// its pins would change, and whether an earlier run already released it.
struct TrainStep: Sendable {
    enum Action: Sendable, Equatable {
        /// Pins (if any), release, push.
        case release
        /// A run killed after tagging left the tag on the commit it would tag, unpushed: push it.
        case pushOnly
        /// The remote tag already points at the commit this run would tag.
        case skip
    }

    var index: Int
    var wave: Int
    var repository: Workspace.Repository
    var remote: String
    var branch: String?
    var version: String
    var pins: PinPlan?
    var action: Action = .release
    var note: String?
    /// The manifest-mismatch lines the child preflight reports and `--set-version` will fix.
    var versionMismatches: [String] = []

    /// The train pushes branch and tag itself (atomically) when it commits something first;
    /// otherwise the child's own `release --push` pushes the tag as in a single release.
    func trainPushes(_ options: TrainRunOptions) -> Bool {
        !repository.pins.isEmpty || options.setVersion || action == .pushOnly
    }
}

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
