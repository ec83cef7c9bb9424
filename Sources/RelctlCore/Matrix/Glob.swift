import Foundation

/// Shell-style globs with `*`, `?` and `[...]`, via fnmatch(3).
enum Glob {
    static func matches(_ pattern: String, _ text: String) -> Bool {
        fnmatch(pattern, text, 0) == 0
    }
}
