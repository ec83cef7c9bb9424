import Foundation
import RelctlBasics
import RelctlModel

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
