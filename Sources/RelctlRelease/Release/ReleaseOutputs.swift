import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlDistribution
import RelctlModel

/// The typed results of the stages that have run, held in memory: later stages read archives,
/// digests and notes from here instead of re-reading files or re-parsing names they produced.
public struct ReleaseOutputs: Sendable {
    /// A `before` hook committed: HEAD is now this commit, and the release is of it.
    var movedHead: (commit: String, time: Int)?
    /// `.binaries`: the targets built.
    var builtTargets: [Target]?
    /// `.archives`: every archive written, with size and SHA-256 from the write stream.
    var archives: [PackagedArtifact]?
    /// `.linuxPackages`: the .deb/.rpm files written, with their digests.
    var linuxPackages: [Artifact]?
    /// `.repositories`: what `relctl repository` would report for this release.
    var repositories: RepositoryBuilder.Report?
    /// `.checksums`: the combined checksum file and the manifest written from `archives`.
    var checksums: ChecksumSet?
    /// `.channels`: what each channel wrote.
    var channels: [ChannelOutput]?
    /// `.publishedChannels`: where the channels were published.
    var publishedChannels: [String]?
    /// `.publishedRepositories`: where the package repositories were pushed.
    var publishedRepositories: [String]?
    /// `.signatures`: the signature files written next to the checksum file.
    var signatures: [String]?
    /// `.provenance`: the provenance file written next to the checksum file.
    var provenance: String?
    /// `.installers`: the installer scripts written.
    var installers: [String]?
    /// `.notes`: the release notes in Markdown.
    var notes: String?
    /// `.tag`: the annotated tag.
    var tag: CreatedTag?
    /// `.pushedTag`: the remote the tag was pushed to.
    var pushedTo: String?
    /// The tag object pushed, so a rollback deletes only that.
    var pushedObject: String?
    /// `.dist`: the files moved into `dist/`.
    var distFiles: [String]?
    /// `.published`: what the publish stage did (on a dry run, what it checked).
    var published: PublishReport?
    /// `.images`: the image layouts built, with their index digests.
    var images: [BuiltImage]?
    /// `.pushedImages`: the images pushed (or, on a dry run, whose registries accept the credentials).
    var pushedImages: [BuiltImage]?

    init() {}

    /// The archives as `manifest.json` lists them (sorted by name), once packaged.
    var artifacts: [Artifact] {
        checksums?.manifest.artifacts ?? archives?.map(\.manifestEntry) ?? []
    }

    /// Whether the stage that produces `fact` has run.
    func has(_ fact: ReleaseFact) -> Bool {
        switch fact {
        case .binaries: return builtTargets != nil
        case .archives: return archives != nil
        case .linuxPackages: return linuxPackages != nil
        case .repositories: return repositories != nil
        case .checksums: return checksums != nil
        case .channels: return channels != nil
        case .publishedChannels: return publishedChannels != nil
        case .publishedRepositories: return publishedRepositories != nil
        case .signatures: return signatures != nil
        case .provenance: return provenance != nil
        case .installers: return installers != nil
        case .notes: return notes != nil
        case .tag: return tag != nil
        case .pushedTag: return pushedTo != nil
        case .dist: return distFiles != nil
        case .published: return published != nil
        case .images: return images != nil
        case .pushedImages: return pushedImages != nil
        }
    }
}
