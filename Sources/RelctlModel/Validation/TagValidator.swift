import Foundation
import RelctlBasics

/// The rules a tag meets beyond its format: a name git accepts, and the version every manifest holds.
public enum TagValidator {
    /// The longest tag relctl releases, in bytes. A release names folders after its tag
    /// (`dist/.relctl-staging-TAG-PID`, the dry run's `relctl-dry-run-TAG-XXXXXXXX`), and a file
    /// name holds at most 255 bytes; a longer tag would fail half-way with "file name too long".
    package static let maximumTagLength = 255 - ".relctl-staging-".utf8.count - "-".utf8.count - 10

    /// The tag's name: short enough for the folders named after it, and one git accepts. The
    /// identity resolver checks it before the version is even read: git would refuse the tag at
    /// the very end.
    package static func checkName(_ tag: String) throws {
        if tag.utf8.count > maximumTagLength {
            throw TagValidationError.tooLong(tag: tag, maximum: maximumTagLength)
        }
        if let why = GitRefName.problem(in: tag) {
            throw TagValidationError.notARefName(tag: tag, reason: why)
        }
    }

    /// Reads every manifest (collecting all read errors, exit 2) and compares it with `version`,
    /// the tag's as the identity resolver read it (`ReleaseIdentity.check`).
    public static func validate(tag: String, version: SemanticVersion, config: RelctlConfig) throws -> TagValidation {
        var sources: [TagValidation.Source] = []
        var stale: [StaleCompanion] = []
        var companionCount = 0
        var errors: [any RelctlError] = []
        for source in config.versions {
            do {
                let found = try ManifestReaders.read(source, config: config)
                let reader = try ManifestReaders.reader(for: source.kind)
                let note = reader.comparison == .pep440 ? PEP440Version.refusal(for: version) : nil
                sources.append(
                    .init(
                        path: source.path, kind: source.kind, version: found.text,
                        matches: matches(
                            found.text, version, reader.comparison, scheme: config.project.tagFormat.scheme),
                        foundIn: found.foundIn,
                        line: found.line, note: note))
                for companion in try CompanionFinder.companions(of: source, found: found, root: config.root) {
                    companionCount += 1
                    if let expected = companion.expectedText(for: version),
                        !stale.contains(where: { $0.companion == companion })
                    {
                        stale.append(StaleCompanion(companion: companion, manifest: source.path, expected: expected))
                    }
                }
            } catch let error as RelctlError {
                errors.append(error)
            }
        }
        if !errors.isEmpty { throw ProblemList(errors) }
        return TagValidation(
            tag: tag, version: version.description, sources: sources, staleCompanions: stale,
            companionCount: companionCount)
    }

    /// Whether a manifest's version text equals the tag's version under the kind's rules; with
    /// calendar versions, also under the calendar reading (`2026.07.22` in a file, tag `2026.07.22`).
    package static func matches(
        _ text: String, _ version: SemanticVersion, _ comparison: VersionComparison, scheme: VersionScheme = .semver
    ) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if scheme == .calver, let calendar = try? VersionScheme.calendarVersion(trimmed), calendar == version {
            return true
        }
        switch comparison {
        case .semver:
            return (try? SemanticVersion(parsing: trimmed)) == version
        case .pep440:
            guard let manifest = PEP440Version(text), let tag = PEP440Version(semver: version) else { return false }
            return manifest == tag
        }
    }
}
