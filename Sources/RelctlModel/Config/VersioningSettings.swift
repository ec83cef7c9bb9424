import RelctlBasics

/// `[versioning]`: where the project records the size of its next release besides its commit
/// subjects (issue 63, "Read intent where projects record it"). `relctl init` writes each key it
/// recognises in the repository; a member of a `[workspace]` inherits the root's table unless its
/// own relctl.toml has one.
package struct VersioningSettings: Sendable, Equatable {
    /// `fragments`: change fragments that give the bump level, one file per change.
    package enum Fragments: String, Sendable, CaseIterable {
        /// towncrier: `changelog.d/123.feature.rst`, `newsfragments/45.bugfix.md`.
        case towncrier
        /// changesets: `.changeset/*.md` whose front matter says `"pkg": minor`.
        case changesets
        /// covector (tauri): `.changes/*.md` whose front matter says `"pkg": patch:bug`, the level
        /// before the colon.
        case covector
        /// knope: `.changeset/*.md` whose front matter names knope.toml's package (`[packages.NAME]`,
        /// or `default` for a lone `[package]`) with `major`, `minor`, `patch` or a type of the
        /// package's `extra_changelog_sections` (a patch). Below 1.0.0 knope makes a major a
        /// minor and a minor a patch (`zero-major = "cargo"`, which init writes with it); the files
        /// raise the commits' level, as knope reads both.
        case knope
        /// chango (python-telegram-bot): `changes/unreleased/*.toml`, each keyed by its section
        /// (`breaking = "…"`, `features = "…"`, `bugfixes = "…"`), read as towncrier's types are.
        case chango
        /// A release file (autopub's `RELEASE.md`, strawberry's; hypothesis' `RELEASE.rst`): one
        /// file a pull request adds, whose `release type: minor` (`RELEASE_TYPE: minor`) is the
        /// release the merge makes; the release removes it.
        case releaseFile = "release-file"
        /// rever's news files (conda): `news/*`, one a pull request, each a copy of
        /// `news/TEMPLATE` whose `### Enhancements` / `### Bug fixes` … sections hold `* …` entries;
        /// the template's `* <news item>` is no entry.
        case news
        /// OpenTelemetry's chloggen: `.chloggen/*.yaml`, one a pull request (its CI requires one
        /// for every change), each with `change_type: breaking|deprecation|new_component|enhancement|bug_fix`.
        case chloggen
        /// antsibull-changelog's fragments (Ansible collections): `changelogs/fragments/*.yml`, each
        /// listing entries under `minor_changes:`, `bugfixes:`, `breaking_changes:` … keys.
        case antsibull

        /// Whether the fragments set the level whatever the commits say (changesets and covector
        /// apply them as `changeset version` does, autopub releases what the file says, chloggen's
        /// CI holds every change to an entry); towncrier's and chango's only raise it.
        package var decidesLevel: Bool {
            self == .changesets || self == .covector || self == .releaseFile || self == .chloggen
        }

        /// Whether a fragment naming the package makes a release with no commit in its folder
        /// (knope releases a package its change file names, a dependency's bump written by hand).
        package var releasesAlone: Bool { decidesLevel || self == .knope }
    }

    /// `zero-major`: what a change does to a version below 1.0.0.
    package enum ZeroMajor: String, Sendable, CaseIterable {
        /// A breaking change gives a minor, as a feat does (0.13.4 → 0.14.0 either way).
        case minor
        /// Cargo's rule as release-plz applies it: a breaking change gives a minor, a feat a patch
        /// (0.13.44 → 0.13.45).
        case cargo
        /// Below 1.0.0 every change gives a patch, a breaking one too (briefcase shipped eight
        /// 0.3.x releases with "Backward Incompatible Changes"): the minor is the maintainers' word,
        /// taken from a version they write (a changelog heading, a manifest).
        case patch
    }

    /// `breaking`: what a breaking change does at 1.0.0 and above.
    package enum Breaking: String, Sendable, CaseIterable {
        /// A major (SemVer's rule).
        case major
        /// A minor, as a feat does: the project ships incompatible changes in minors (pyinstaller's
        /// "Incompatible Changes" in 5.4, 5.6, 5.7, 5.8, 5.10), and a major is the maintainers'
        /// word, taken from a version they write (a changelog heading, a manifest).
        case minor
    }

    /// `features`: what a feature does at 1.0.0 and above.
    package enum Features: String, Sendable, CaseIterable {
        /// A minor (SemVer's rule).
        case minor
        /// A patch, as a fix does: the project ships features in patches (go-zero's `feat:`
        /// ranges released as 1.7.x patches seven times to two minors), and a minor is the
        /// maintainers' word, taken from a version they write (a changelog heading, a manifest).
        case patch
        /// A major: the project's versions have two numbers that count (WeasyPrint's `v65.0` after
        /// `v64.1`), a feature stepping the first; with `cadence = "minor"` a fix steps the second.
        case major
    }

    /// `untyped-adds`: what a commit without a type whose subject adds something (`Add …`,
    /// `Support …`, `Implement …`; not `Add tests …`) calls for.
    package enum UntypedAdds: String, Sendable, CaseIterable {
        /// A patch, as every commit without a type does.
        case patch
        /// A minor, as a feat does: the project's releases show such subjects going into minors
        /// (PyGithub, date-fns, cheerio).
        case minor
    }

    /// `cadence`: the step the project takes every release, whatever its commits say.
    package enum Cadence: String, Sendable, CaseIterable {
        /// Every release is at least a minor (`1.4.0` → `1.5.0`); a breaking change still gives a major.
        case minor
        /// Every release is a major (`48.0.0` → `49.0.0`).
        case major
        /// `YY.N.0`: the first number the year of the commit released (as the tags write it), the
        /// second counting that year's releases (attrs' `24.2.0` → `24.3.0`, then `25.1.0`).
        case yearCounter = "year-counter"
        /// `MAJOR.YY.M`: the major kept (a breaking change steps it), then the year and the month of
        /// the commit released (gopsutil's `v4.26.2` of February 2026, then `v4.26.3`).
        case yearMonth = "year-month"

        /// Whether the date of the commit released decides the version, not a step from the latest.
        package var isDated: Bool { self == .yearCounter || self == .yearMonth }
    }

    package var fragments: Fragments?
    /// `changelog`: the changelog file (relative to the project's folder: a workspace member reads
    /// its own) whose newest section, written ahead of the release, gives the next release's
    /// version or level (`ChangelogIntent`).
    package var changelog: String?
    package var zeroMajor: ZeroMajor = .minor
    package var breaking: Breaking = .major
    package var features: Features = .minor
    package var untypedAdds: UntypedAdds = .patch
    package var cadence: Cadence?
    /// `scope-levels`: a Conventional Commits scope naming a level (`fix(minor): …`,
    /// `feat(patch): …`, `chore(major): …`) releases at least that level, as semantic-release's
    /// `releaseRules` keyed by scope do (ordo-one's package-benchmark).
    package var scopeLevels = false
    /// Whether the table was written (a member's own `[versioning]` replaces the root's).
    package var isSet = false

    package init(fragments: Fragments? = nil, zeroMajor: ZeroMajor = .minor, cadence: Cadence? = nil) {
        self.fragments = fragments
        self.zeroMajor = zeroMajor
        self.cadence = cadence
    }
}
