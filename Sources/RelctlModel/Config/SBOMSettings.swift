import Foundation
import RelctlBasics

/// `[sbom]`: a CycloneDX SBOM (`NAME.cdx.json`) next to each archive.
package struct SBOMSettings: Sendable, Equatable {
    package var enabled: Bool = true
    package init() {}
}
