import RelctlBasics
import RelctlModel

/// The GitHub Actions tag filter for a tag format: `v{version}` → `v*.*.*`.
package enum TagGlob {
    /// Characters GitHub's filter syntax treats specially; a literal one needs a backslash.
    package static let special: Set<Character> = ["*", "?", "+", "[", "]", "!", "\\"]

    package static func pattern(for format: TagFormat) -> String {
        escape(format.prefix) + ["*", "*", "*"].joined(separator: String(format.separator)) + escape(format.suffix)
    }

    package static func escape(_ text: String) -> String {
        String(text.flatMap { special.contains($0) ? ["\\", $0] : [$0] })
    }
}

/// The GitLab CI rule that starts the pipeline for a tag of the project's format: the same tags
/// as the GitHub filter `TagGlob` writes (`v{version}` → `v*.*.*`, `*` not crossing `/`).
package enum TagRegex {
    /// `$CI_COMMIT_TAG =~ /^v[^\x2F]*\.[^\x2F]*\.[^\x2F]*$/`. GitLab evaluates it with RE2;
    /// a branch pipeline has no `CI_COMMIT_TAG`, which matches nothing.
    package static func rule(for format: TagFormat) -> String {
        "$CI_COMMIT_TAG =~ /" + pattern(for: format) + "/"
    }

    package static func pattern(for format: TagFormat) -> String {
        let part = #"[^\x2F]*"#
        let between = format.separator == "." ? #"\."# : escape(String(format.separator))
        return "^" + escape(format.prefix) + [part, part, part].joined(separator: between) + escape(format.suffix) + "$"
    }

    /// Every ASCII character but letters, digits, `-` and `_` as `\xHH`: no regex operator, no
    /// `/` that would end the literal, no `$` GitLab could read as a variable, no quote or blank
    /// the expression parser splits on. Other characters (non-ASCII) are literal in RE2.
    package static func escape(_ text: String) -> String {
        text.unicodeScalars.map { scalar -> String in
            guard scalar.isASCII else { return String(scalar) }
            let keep =
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "-" || scalar == "_"
            if keep { return String(scalar) }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return #"\x"# + (hex.count == 1 ? "0" + hex : hex)
        }.joined()
    }
}
