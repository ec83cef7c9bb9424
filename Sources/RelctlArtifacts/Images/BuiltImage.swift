import Foundation
import RelctlBasics
import RelctlModel

/// What `relctl image` built (and pushed): the JSON shape of the contract's `images` list.
public struct BuiltImage: Sendable, Codable, Equatable {
    public var name: String
    /// `host/path` the image is pushed to.
    package var repository: String
    /// The OCI index's digest, `sha256:…`: the multi-platform image's identity.
    package var digest: String
    package var tags: [String]
    /// `linux/amd64`, `linux/arm64/v8`, … in target order.
    package var platforms: [String]
    /// The OCI image layout folder.
    package var layout: String
    /// True once every blob, manifest and tag is in the registry.
    public var pushed: Bool = false

    /// Where a base image came from, so its layers can be mounted instead of uploaded.
    package var base: ImageReference?
    package var reference: ImageReference

    package enum CodingKeys: String, CodingKey { case name, repository, digest, tags, platforms, layout, pushed }

    package init(
        name: String, repository: String, digest: String, tags: [String], platforms: [String], layout: String,
        pushed: Bool = false, base: ImageReference?, reference: ImageReference
    ) {
        self.name = name
        self.repository = repository
        self.digest = digest
        self.tags = tags
        self.platforms = platforms
        self.layout = layout
        self.pushed = pushed
        self.base = base
        self.reference = reference
    }

    /// Read back from a `--json` document (the train reads its children's): the reference is the
    /// pushed repository at the index digest; where the base came from is not part of the document.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        name = try values.decode(String.self, forKey: .name)
        repository = try values.decode(String.self, forKey: .repository)
        digest = try values.decode(String.self, forKey: .digest)
        tags = try values.decode([String].self, forKey: .tags)
        platforms = try values.decode([String].self, forKey: .platforms)
        layout = try values.decode(String.self, forKey: .layout)
        pushed = try values.decode(Bool.self, forKey: .pushed)
        base = nil
        do {
            reference = try ImageReference(parsing: "\(repository)@\(digest)")
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: .repository, in: values, debugDescription: "\(repository)@\(digest) is not an image reference")
        }
    }
}
