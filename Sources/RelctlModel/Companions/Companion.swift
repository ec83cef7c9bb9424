import Foundation
import RelctlBasics

/// A place that must follow a `[[version]]` manifest's version for the project to keep building:
/// a lock file's entry for the project's own package, or a requirement on one of the
/// workspace's own crates. Found automatically (`CompanionFinder`), checked by `validate-tag`
/// and `check`, and written with the manifest by `bump --write` / `bump --set`.
package struct Companion: Sendable, Equatable, Encodable {
    package enum Kind: String, Sendable, Encodable {
        /// A `[[package]]` entry of a workspace package in `Cargo.lock`.
        case cargoLock = "cargo-lock"
        /// A `version = "…"` requirement on a path dependency to an own crate.
        case cargoRequirement = "cargo-requirement"
        /// `package-lock.json`'s top-level `version` or `packages[""].version`.
        case npmLock = "npm-lock"
        /// An exact pin in `package.json` on one of the package's own per-platform packages.
        case npmPin = "npm-pin"
        /// `uv.lock`'s editable (or virtual) root package.
        case uvLock = "uv-lock"
    }

    package var kind: Kind
    /// Relative to the project root, as messages show it.
    package var file: String
    /// 1-based line of the version text.
    package var line: Int
    /// The version text as written (for a requirement: without its operator, `0.15.1` of `=0.15.1`).
    package var text: String
    /// What it is, for messages: "Cargo.lock entry of `velo-core`".
    package var what: String
    /// For a requirement: its operator as written (`""`, `=`, `^`, `~`), kept on rewrite.
    package var requirementOperator: String?
    /// UTF-8 offset of the text within its line, when the finder knows it (JSON files, where a
    /// minified document holds every value on one line).
    package var column: Int?

    package init(
        kind: Kind, file: String, line: Int, text: String, what: String, requirementOperator: String? = nil,
        column: Int? = nil
    ) {
        self.column = column
        self.kind = kind
        self.file = file
        self.line = line
        self.text = text
        self.what = what
        self.requirementOperator = requirementOperator
    }

    package enum CodingKeys: String, CodingKey { case kind, file, line, text, what }

    /// The text this companion must hold for the manifest version `version`, or nil when the
    /// current text is fine. Lock entries and pins are exact.
    ///
    /// A requirement is stale only when Cargo would refuse it (it no longer admits the version),
    /// so a compatible requirement that lags (`0.3.1` for 0.3.5) is not a mismatch. When written
    /// (`previous` is the manifest's version before the bump), a requirement that was in lockstep
    /// with it (`0.15.1`, `=0.15.1`, `^0.15.1` for 0.15.1) stays in lockstep; any other is rewritten
    /// only when it no longer admits the version. The operator is kept, and a shorter requirement
    /// keeps its precision (`^0.15` → `^0.16`); a prerelease always gets the full version.
    package func expectedText(for version: SemanticVersion, previous: String? = nil) -> String? {
        switch kind {
        case .uvLock:
            // uv writes the PEP 440 normalised spelling; any spelling equal under PEP 440 is current.
            let want = PEP440Version(semver: version)?.description ?? version.description
            if let have = PEP440Version(text), let wanted = PEP440Version(want), have == wanted { return nil }
            return want
        case .cargoLock, .npmLock, .npmPin:
            return text == version.description ? nil : version.description
        case .cargoRequirement:
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            let full = parts.count >= 3 || text.contains("-")
            let rewritten =
                full || version.isPrerelease
                ? version.description
                : [version.major, version.minor, version.patch].prefix(parts.count).joined(separator: ".")
            if let previous, full, text == previous.trimmingCharacters(in: .whitespaces) {
                return text == rewritten ? nil : rewritten
            }
            if CargoRequirement.admits(operator: requirementOperator ?? "", text: text, version: version) { return nil }
            return text == rewritten ? nil : rewritten
        }
    }
}

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
            "\(companion.what) holds \(companion.text), but \(manifest) needs \(expected); run `relctl bump --write` (or `bump --set VERSION --write`), which updates companions with their manifest; when \(expected) is released already (bump refuses its version then), let the package manager write the lock file again (`npm install --package-lock-only`, `cargo update --workspace`)"
        )
    }

    package init(companion: Companion, manifest: String, expected: String) {
        self.companion = companion
        self.manifest = manifest
        self.expected = expected
    }
}
