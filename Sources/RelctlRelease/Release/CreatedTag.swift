import Foundation
import RelctlBasics
import RelctlModel

/// The tag the tag stage created.
struct CreatedTag: Sendable {
    var name: String
    /// The annotated tag's message.
    var message: String
    var signed: Bool
}
