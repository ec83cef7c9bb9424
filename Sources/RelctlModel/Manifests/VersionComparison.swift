import Foundation
import RelctlBasics

/// How a manifest's version is compared with the tag's.
public enum VersionComparison: Sendable {
    /// SemVer 2.0.0 equality (build metadata included).
    case semver
    /// PEP 440 normalisation: `1.2.3rc1` equals `v1.2.3-rc.1`.
    case pep440
}
