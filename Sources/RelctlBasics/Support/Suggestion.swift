/// "Did you mean" suggestions for unknown keys, placeholders and ids.
package enum Suggestion {
    /// The candidate closest to `word` by edit distance, when it is close enough to be a
    /// plausible typo (two edits for short words, three for long ones).
    package static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let limit = max(2, min(3, word.count / 3 + 1))
        var best: (String, Int)?
        for candidate in candidates {
            let distance = editDistance(word.lowercased(), candidate.lowercased())
            if distance <= limit, best == nil || distance < best!.1 {
                best = (candidate, distance)
            }
        }
        return best?.0
    }

    /// ` (did you mean `x`?)`, or the empty string when nothing is close.
    package static func hint(for word: String, in candidates: some Sequence<String>) -> String {
        guard let match = closest(to: word, in: candidates) else { return "" }
        return " (did you mean `\(match)`?)"
    }

    /// Damerau-Levenshtein (optimal string alignment): a swapped pair counts as one edit, which
    /// is the commonest typo (`tag-fromat`).
    package static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
