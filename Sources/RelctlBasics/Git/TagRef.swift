import Foundation

/// A tag as git stores it: the tag object (for an annotated tag) and the commit it points at.
/// Comparing objects, not commits, tells this run's tag from someone else's on the same commit.
package struct TagRef: Sendable, Equatable, Encodable {
    package var object: String
    package var commit: String
}
