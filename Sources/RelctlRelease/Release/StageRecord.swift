import RelctlBasics
import RelctlModel

/// A stage's line in the plan and the summary.
struct StageRecord: Sendable, Codable, Equatable {
    var name: String
    var status: StageStatus
    /// Wall-clock seconds, rounded to milliseconds.
    var seconds: Double
    var detail: String?

    init(name: String, status: StageStatus, seconds: Double = 0, detail: String? = nil) {
        self.name = name
        self.status = status
        self.seconds = (seconds * 1000).rounded() / 1000
        self.detail = detail
    }
}

/// How a stage ended.
enum StageStatus: String, Sendable, Codable {
    case ok, failed, skipped, notRun = "not-run"
}

/// How a pipeline step (preflight, workspace) ended, before it is timed into a `StageRecord`.
struct StageRecordDraft: Sendable {
    var ok: Bool
    var detail: String?
}
