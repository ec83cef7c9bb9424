import Foundation

/// `[provenance]`: `dist/{project}-{tag}.intoto.jsonl`, the release's signed SLSA provenance.
struct ProvenanceSettings: Sendable, Equatable {
    var enabled: Bool = false
    init() {}
}
