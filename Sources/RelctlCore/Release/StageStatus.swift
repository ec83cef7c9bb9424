/// How a stage ended.
public enum StageStatus: String, Sendable, Codable {
    case ok, failed, skipped, notRun = "not-run"
}
