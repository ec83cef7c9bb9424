import RelctlBasics
import RelctlModel

/// The GitHub Actions tag filter for a tag format: `v{version}` → `v*.*.*`.
package enum TagGlob {
    /// Characters GitHub's filter syntax treats specially; a literal one needs a backslash.
    package static let special: Set<Character> = ["*", "?", "+", "[", "]", "!", "\\"]

    package static func pattern(for format: TagFormat) -> String {
        escape(format.prefix) + "*.*.*" + escape(format.suffix)
    }

    package static func escape(_ text: String) -> String {
        String(text.flatMap { special.contains($0) ? ["\\", $0] : [$0] })
    }
}
