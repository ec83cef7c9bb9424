import Foundation
import RelctlBasics

/// How symlinks are stored: `keep` as links (tar), `copy` as the target's bytes (zip for Windows).
package enum LinksPolicy: String, Sendable, CaseIterable, Codable {
    case keep, copy
}
