import Foundation
import RelctlBasics
import RelctlModel

/// How `relctl train run` runs.
public struct TrainRunOptions: Sendable {
    var tag: String
    var dryRun = false
    /// Repositories of one wave released at once.
    var jobs = 1
    /// `--set-version`: set every repository's manifests to the train's version first
    /// (`relctl bump --set VERSION --write`), committed with the pins.
    var setVersion = false

    public init(tag: String, dryRun: Bool = false, jobs: Int = 1, setVersion: Bool = false) {
        self.tag = tag
        self.dryRun = dryRun
        self.jobs = max(1, jobs)
        self.setVersion = setVersion
    }
}
