/// A stage's line in the plan and the summary.
public struct StageRecord: Sendable, Codable, Equatable {
    public var name: String
    public var status: StageStatus
    /// Wall-clock seconds, rounded to milliseconds.
    public var seconds: Double
    public var detail: String?

    public init(name: String, status: StageStatus, seconds: Double = 0, detail: String? = nil) {
        self.name = name
        self.status = status
        self.seconds = (seconds * 1000).rounded() / 1000
        self.detail = detail
    }
}
