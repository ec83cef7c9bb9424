import Foundation
import RelctlBasics

/// Shell-style globs with `*`, `?` and `[...]`, via fnmatch(3).
package enum Glob {
    package static func matches(_ pattern: String, _ text: String) -> Bool {
        fnmatch(pattern, text, 0) == 0
    }
}
