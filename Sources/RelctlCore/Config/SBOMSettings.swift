import Foundation

/// `[sbom]`: a CycloneDX SBOM (`NAME.cdx.json`) next to each archive.
struct SBOMSettings: Sendable, Equatable {
    var enabled: Bool = true
    init() {}
}
