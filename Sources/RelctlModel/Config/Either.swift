import Foundation
import RelctlBasics

/// One of two shapes a config value may take.
package enum Either<Left, Right> {
    case left(Left)
    case right(Right)
}
