import Foundation

/// The typed results of the stages that have run, held in memory: later stages read archives,
/// digests and notes from here instead of re-reading files or re-parsing names they produced.
public struct ReleaseOutputs: Sendable {
    /// A `before` hook committed: HEAD is now this commit, and the release is of it.
    public var movedHead: (commit: String, time: Int)?
    /// `.binaries`: the targets built.
    public var builtTargets: [Target]?
    /// `.archives`: every archive written, with size and SHA-256 from the write stream.
    public var archives: [PackagedArtifact]?
    /// `.checksums`: the combined checksum file and the manifest written from `archives`.
    public var checksums: ChecksumSet?
    /// `.signatures`: the signature files written next to the checksum file.
    public var signatures: [String]?
    /// `.installers`: the installer scripts written.
    public var installers: [String]?
    /// `.notes`: the release notes in Markdown.
    public var notes: String?
    /// `.tag`: the annotated tag.
    public var tag: CreatedTag?
    /// `.pushedTag`: the remote the tag was pushed to.
    public var pushedTo: String?
    /// The tag object pushed, so a rollback deletes only that.
    public var pushedObject: String?
    /// `.dist`: the files moved into `dist/`.
    public var distFiles: [String]?
    /// `.published`: what the publish stage did (on a dry run, what it checked).
    public var published: PublishReport?
    /// `.images`: the image layouts built, with their index digests.
    public var images: [BuiltImage]?
    /// `.pushedImages`: the images pushed (or, on a dry run, whose registries accept the credentials).
    public var pushedImages: [BuiltImage]?

    public init() {}

    /// The archives as `manifest.json` lists them (sorted by name), once packaged.
    public var artifacts: [ReleaseManifest.Artifact] {
        checksums?.manifest.artifacts ?? archives?.map(\.manifestEntry) ?? []
    }

    /// Whether the stage that produces `fact` has run.
    public func has(_ fact: ReleaseFact) -> Bool {
        switch fact {
        case .binaries: return builtTargets != nil
        case .archives: return archives != nil
        case .checksums: return checksums != nil
        case .signatures: return signatures != nil
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
