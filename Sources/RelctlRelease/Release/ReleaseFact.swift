import RelctlBasics
import RelctlModel

/// A result one release stage hands to the later ones. Stages declare the facts they need and
/// produce; the pipeline checks the order once, records each fact as it is produced, and skips
/// a stage whose needs were not produced (a tag-only release builds nothing, so nothing is
/// packaged or checksummed).
public enum ReleaseFact: String, Sendable, CaseIterable, Comparable {
    /// The targets were built (or their prebuilt binaries found).
    case binaries
    /// Archives in the staging folder, with their sizes and digests.
    case archives
    /// `[[image]]` OCI image layouts, with their index digests.
    case images
    /// `[[package]]` .deb/.rpm files in the staging folder, with their digests.
    case linuxPackages
    /// `[npm]` package tarballs in the staging folder, with their digests.
    case npmPackages
    /// `[windows] msi`: one .msi per Windows target in the staging folder, with its digests.
    case msiInstallers
    /// `[pypi]` wheels (and their SBOMs) in the staging folder, with their digests.
    case wheels
    /// `apt/` and `dnf/`: the signed package repositories holding this release's packages.
    case repositories
    /// `SHA256SUMS` (or the configured algorithm's file) and `manifest.json`.
    case checksums
    /// The channels' files (chart, flake, formula, manifest, plugins'), their assets listed in `SHA256SUMS`.
    case channels
    /// `SHA256SUMS.sig` and/or `SHA256SUMS.minisig`.
    case signatures
    /// `{project}-{tag}.intoto.jsonl`, the signed provenance of the files in `SHA256SUMS`.
    case provenance
    /// `{project}-installer.sh` and `.ps1`.
    case installers
    /// `RELEASE_NOTES.md`.
    case notes
    /// The annotated tag, created locally.
    case tag
    /// The tag, on the remote.
    case pushedTag
    /// The staged files, moved into `dist/`.
    case dist
    /// The images, in their registries (blobs, manifests, then tags).
    case pushedImages
    /// The GitHub release, public with every asset (`--publish`).
    case published
    /// The channels published: the chart pushed (`--push`), the tap and bucket pushed (`--publish`).
    case publishedChannels
    /// `apt/` and `dnf/` committed to `[repository] branch` (`--publish`).
    case publishedRepositories
    /// The `[npm]` packages in their registry (`--publish`).
    case publishedNpm
    /// The `[pypi]` wheels on the index (`--publish`).
    case publishedWheels

    public static func < (lhs: ReleaseFact, rhs: ReleaseFact) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
