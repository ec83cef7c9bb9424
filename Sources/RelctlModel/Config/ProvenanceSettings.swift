import Foundation
import RelctlBasics

/// `[provenance]`: `dist/{project}-{tag}.intoto.jsonl`, the release's signed SLSA provenance.
package struct ProvenanceSettings: Sendable, Equatable {
    package var enabled: Bool = false
    package init() {}
}
