import RelctlBasics

/// Reads the tags relctl finds rather than is handed: the repository's tags (`ReleaseHistory`,
/// `ReleasedVersions`, which member a workspace tag is of), a forge's existing releases, the tag
/// a killed release recorded, the tag an archive's name spells (`relctl checksum` in a CI merge
/// job, with only the archives). A tag a command is handed is the identity resolver's
/// (`ReleaseIdentity+Resolve.swift`); these two are the only readers of `TagFormat`'s parser
/// (`LayerTests.tagsAreReadInTwoPlaces`).
package struct TagReader: Sendable {
    /// The format, with the calendar spelling learnt from the tags when read with `learningFrom`.
    package private(set) var format: TagFormat

    package init(_ format: TagFormat) {
        self.format = format
    }

    /// A reader of `tags` that spells calendar versions the way they do (zero padding, a short year).
    package init(learningFrom tags: some Sequence<String>, format: TagFormat) {
        self.format = format.learningSpelling(from: tags)
    }

    /// What `tag` is to the format, read tolerantly (the contract's "Versions come from the tag
    /// history"): a release, the same version spelled otherwise, malformed, or unrelated.
    package func read(_ tag: String) -> TagFormat.Reading { format.reading(of: tag) }

    /// Whether a release tag spells its version the PEP 440 way (`v2.14.0b1`, not `v2.14.0-beta.1`).
    package func spellsPEP440(_ tag: String) -> Bool {
        guard let inner = format.versionText(of: tag, prefix: format.prefix) else { return false }
        return (try? SemanticVersion(parsing: inner)) == nil && PEP440Version(inner) != nil
    }

    /// The version of a tag spelled exactly as a release tag relctl accepts is (what `relctl
    /// release` would take for one); nil for any other tag.
    package func releaseVersion(of tag: String) -> SemanticVersion? { try? format.version(of: tag) }
}
