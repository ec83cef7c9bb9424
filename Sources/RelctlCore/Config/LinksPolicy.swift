import Foundation

/// How symlinks are stored: `keep` as links (tar), `copy` as the target's bytes (zip for Windows).
enum LinksPolicy: String, Sendable, CaseIterable, Codable {
    case keep, copy
}
