import Foundation

/// Secrets never reach a message: a server whose answer echoes the request back (the token in a
/// reflected `Authorization` header), on any status, must not make relctl print the token. Each
/// client masks its own secrets in every body before any message is built from it.
///
/// A JSON body can spell a secret with escapes (`\u0067lpat-…`, `\/`, any mix of escaped and
/// plain characters), and a JSON parser turns that back into the secret: the text is read as JSON
/// string escapes would be decoded, matched there, and the whole spelling in the original text is
/// replaced. Decoding is repeated (a JSON document quoted inside a JSON string escapes twice).
package enum SecretMask {
    package static let replacement = "***"
    /// How many layers of escaping are looked through: a document quoted in a string in a document.
    static let escapeLayers = 3
    /// How much of a body is masked when only its start reaches a message (a few hundred
    /// characters are shown): far more than any escaped spelling of a token, and a 16 MiB body
    /// costs no more than this.
    package static let messageWindow = 64 << 10

    /// `text` with every secret (and its base64 form, as it travels in a Basic header) replaced,
    /// however the text escapes it. Secrets shorter than 4 characters are not masked: they would
    /// hide ordinary words.
    package static func mask(_ text: String, hiding secrets: [String]) -> String {
        let forms = forms(of: secrets).map { Array($0.unicodeScalars) }
        guard !forms.isEmpty else { return text }
        let original = Array(text.unicodeScalars)
        // Each layer: the decoded scalars, and for each, the span of the original text it stands for.
        var layer = EscapeLayer(identity: original)
        var spans: [Range<Int>] = []
        for depth in 0...escapeLayers {
            for form in forms { spans += layer.matches(of: form) }
            guard depth < escapeLayers, let next = layer.decoded() else { break }
            layer = next
        }
        guard !spans.isEmpty else { return text }
        var masked = String.UnicodeScalarView()
        var position = 0
        for span in merged(spans) {
            masked.append(contentsOf: original[position..<span.lowerBound])
            masked.append(contentsOf: replacement.unicodeScalars)
            position = span.upperBound
        }
        masked.append(contentsOf: original[position...])
        return String(masked)
    }

    package static func forms(of secrets: [String]) -> [String] {
        let plain = secrets.filter { $0.count >= 4 }
        // Longest first, so a secret inside another is not half-masked.
        return Array(Set(plain + plain.map { Data($0.utf8).base64EncodedString() })).sorted {
            $0.count != $1.count ? $0.count > $1.count : $0 < $1
        }
    }

    /// Overlapping or touching spans joined, in order.
    private static func merged(_ spans: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, span.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
            } else {
                result.append(span)
            }
        }
        return result
    }

    /// Text as JSON string escapes decode it, each scalar remembering where its spelling starts in
    /// the original text. The spellings cover the original in order, so a span ends where the next
    /// one starts: one offset per scalar, nothing for the undecoded text itself.
    private struct EscapeLayer {
        var scalars: [Unicode.Scalar]
        /// nil for the original text (each scalar spells itself).
        var starts: [Int]?
        var total: Int

        init(identity scalars: [Unicode.Scalar]) {
            self.scalars = scalars
            starts = nil
            total = scalars.count
        }

        init(scalars: [Unicode.Scalar], starts: [Int], total: Int) {
            self.scalars = scalars
            self.starts = starts
            self.total = total
        }

        func start(_ index: Int) -> Int { starts?[index] ?? index }
        func end(_ index: Int) -> Int { index + 1 < scalars.count ? start(index + 1) : total }

        /// The original spans where `form` occurs in this layer.
        func matches(of form: [Unicode.Scalar]) -> [Range<Int>] {
            guard let first = form.first, form.count <= scalars.count else { return [] }
            var found: [Range<Int>] = []
            var start = 0
            while start + form.count <= scalars.count {
                if scalars[start] == first, scalars[start..<(start + form.count)].elementsEqual(form) {
                    found.append(self.start(start)..<end(start + form.count - 1))
                }
                start += 1
            }
            return found
        }

        /// One layer of `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t` and `\uXXXX` (surrogate pairs
        /// joined) decoded; anything else stays as it is. Nil when there is no escape left.
        func decoded() -> EscapeLayer? {
            guard scalars.contains("\\") else { return nil }
            var out: [Unicode.Scalar] = []
            var outStarts: [Int] = []
            var changed = false
            var index = 0
            while index < scalars.count {
                if scalars[index] == "\\", let (scalar, length) = escape(at: index) {
                    out.append(scalar)
                    outStarts.append(start(index))
                    index += length
                    changed = true
                } else {
                    out.append(scalars[index])
                    outStarts.append(start(index))
                    index += 1
                }
            }
            return changed ? EscapeLayer(scalars: out, starts: outStarts, total: total) : nil
        }

        /// The scalar an escape starting at `index` (a backslash) stands for, and its length.
        private func escape(at index: Int) -> (Unicode.Scalar, Int)? {
            guard index + 1 < scalars.count else { return nil }
            switch scalars[index + 1] {
            case "\"": return ("\"", 2)
            case "\\": return ("\\", 2)
            case "/": return ("/", 2)
            case "b": return ("\u{08}", 2)
            case "f": return ("\u{0C}", 2)
            case "n": return ("\n", 2)
            case "r": return ("\r", 2)
            case "t": return ("\t", 2)
            case "u":
                guard let high = unit(at: index + 2) else { return nil }
                if (0xD800...0xDBFF).contains(high), index + 7 < scalars.count, scalars[index + 6] == "\\",
                    scalars[index + 7] == "u", let low = unit(at: index + 8), (0xDC00...0xDFFF).contains(low),
                    let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                {
                    return (scalar, 12)
                }
                return Unicode.Scalar(high).map { ($0, 6) }
            default: return nil
            }
        }

        /// Four hex digits at `index`, as a UTF-16 code unit.
        private func unit(at index: Int) -> UInt32? {
            guard index + 4 <= scalars.count else { return nil }
            var value: UInt32 = 0
            for scalar in scalars[index..<(index + 4)] {
                guard let digit = Int(String(scalar), radix: 16) else { return nil }
                value = value * 16 + UInt32(digit)
            }
            return value
        }
    }
}

extension HTTPResponse {
    /// The response with `secrets` masked in its body, whatever its status: for an answer whose
    /// body becomes a message (an unexpected status, a document that does not decode).
    package func maskingSecrets(_ secrets: [String]) -> HTTPResponse {
        guard !secrets.isEmpty else { return self }
        let text = String(decoding: body, as: UTF8.self)
        let masked = SecretMask.mask(text, hiding: secrets)
        guard masked != text else { return self }
        var copy = self
        copy.body = Data(masked.utf8)
        return copy
    }

    /// Masked only when an error (status 400 and up), for a client whose success bodies are data
    /// kept byte for byte (a registry's manifest, a token answer); such a client masks a success
    /// body itself where one reaches a message.
    package func maskingErrorBody(_ secrets: [String]) -> HTTPResponse {
        status >= 400 ? maskingSecrets(secrets) : self
    }
}
