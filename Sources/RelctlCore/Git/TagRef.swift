import Foundation

/// A tag as git stores it: the tag object (for an annotated tag) and the commit it points at.
/// Comparing objects, not commits, tells this run's tag from someone else's on the same commit.
struct TagRef: Sendable, Equatable, Encodable {
    var object: String
    var commit: String
}
