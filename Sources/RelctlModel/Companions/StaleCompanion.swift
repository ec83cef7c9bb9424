import RelctlBasics

/// A companion whose text does not follow its manifest's version: what it holds, what it
/// should hold, and where.
package struct StaleCompanion: Sendable, Equatable, Encodable {
    package var companion: Companion
    /// The manifest it follows, as configured in `[[version]] path`.
    package var manifest: String
    package var expected: String

    package enum CodingKeys: String, CodingKey { case kind, file, line, text, expected, what, manifest }
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(companion.kind, forKey: .kind)
        try container.encode(companion.file, forKey: .file)
        try container.encode(companion.line, forKey: .line)
        try container.encode(companion.text, forKey: .text)
        try container.encode(expected, forKey: .expected)
        try container.encode(companion.what, forKey: .what)
        try container.encode(manifest, forKey: .manifest)
    }

    package var diagnostic: Diagnostic {
        Diagnostic(
            file: companion.file, line: companion.line,
            "\(companion.what) holds \(companion.text), but \(manifest) needs \(expected); run `relctl bump --write` (or `bump --set VERSION --write`), which updates companions with their manifest"
        )
    }

    package init(companion: Companion, manifest: String, expected: String) {
        self.companion = companion
        self.manifest = manifest
        self.expected = expected
    }
}
