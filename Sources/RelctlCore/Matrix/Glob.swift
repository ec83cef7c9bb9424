import Foundation

/// Shell-style globs with `*`, `?` and `[...]`, via fnmatch(3).
public enum Glob {
    public static func matches(_ pattern: String, _ text: String) -> Bool {
        fnmatch(pattern, text, 0) == 0
    }
}
