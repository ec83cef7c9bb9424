import Foundation

/// One of two shapes a config value may take.
enum Either<Left, Right> {
    case left(Left)
    case right(Right)
}
