/// How a stage ended.
enum StageStatus: String, Sendable, Codable {
    case ok, failed, skipped, notRun = "not-run"
}
