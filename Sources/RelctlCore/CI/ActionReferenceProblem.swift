import Foundation

struct ActionReferenceProblem: Error, Sendable, Equatable {
    var message: String
}
