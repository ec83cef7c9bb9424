import RelctlBasics

/// What `relctl ci generate` did.
public enum WorkflowOutcome: String, Sendable, Encodable {
    case created, updated, unchanged
    /// `--force` replaced a hand-edited file.
    case replaced
    /// `--check` found the file current.
    case upToDate = "up-to-date"
}
