/// How a pipeline step (preflight, workspace) ended, before it is timed into a `StageRecord`.
struct StageRecordDraft: Sendable {
    var ok: Bool
    var detail: String?
}
