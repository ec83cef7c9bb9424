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
    /// `.npmPackages`: the `[npm]` tarballs written, platform packages first, the main package last.
    var npmPackages: [Artifact]?
    /// `.publishedNpm`: the packages sent to the registry (those already there are not listed).
    var publishedNpm: [String]?
    /// `.msiInstallers`: the MSI installers written, with their digests.
    var msiInstallers: [Artifact]?
    /// `.wheels`: the `[pypi]` wheels and their SBOMs, with their digests.
    var wheels: PythonWheelBuilder.Written?
    /// `.publishedWheels`: the wheels the index holds after the upload.
    var publishedWheels: [String]?
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

    /// These outputs with only `facts`: what a stage that runs alongside others is handed, so it
    /// sees the same whether its siblings have ended or not (and whether they overlap at all).
    func only(_ facts: Set<ReleaseFact>) -> ReleaseOutputs {
        var subset = ReleaseOutputs()
        for fact in facts { subset.take(fact, from: self) }
        return subset
    }

    /// Copies what records `fact` from `other`: a stage's results, merged back from the copy it ran on.
    mutating func take(_ fact: ReleaseFact, from other: ReleaseOutputs) {
        switch fact {
        case .binaries: builtTargets = other.builtTargets
        case .archives: archives = other.archives
        case .linuxPackages: linuxPackages = other.linuxPackages
        case .npmPackages: npmPackages = other.npmPackages
        case .publishedNpm: publishedNpm = other.publishedNpm
        case .msiInstallers: msiInstallers = other.msiInstallers
        case .wheels: wheels = other.wheels
        case .publishedWheels: publishedWheels = other.publishedWheels
        case .repositories: repositories = other.repositories
        case .checksums: checksums = other.checksums
        case .channels: channels = other.channels
        case .publishedChannels: publishedChannels = other.publishedChannels
        case .publishedRepositories: publishedRepositories = other.publishedRepositories
        case .signatures: signatures = other.signatures
        case .provenance: provenance = other.provenance
        case .installers: installers = other.installers
        case .notes: notes = other.notes
        case .tag: tag = other.tag
        case .pushedTag:
            pushedTo = other.pushedTo
            pushedObject = other.pushedObject
        case .dist: distFiles = other.distFiles
        case .published: published = other.published
        case .images: images = other.images
        case .pushedImages: pushedImages = other.pushedImages
        }
    }

    /// Whether the stage that produces `fact` has run.
    func has(_ fact: ReleaseFact) -> Bool {
        switch fact {
        case .binaries: return builtTargets != nil
        case .archives: return archives != nil
        case .linuxPackages: return linuxPackages != nil
        case .npmPackages: return npmPackages != nil
        case .publishedNpm: return publishedNpm != nil
        case .msiInstallers: return msiInstallers != nil
        case .wheels: return wheels != nil
        case .publishedWheels: return publishedWheels != nil
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
