import Foundation

/// What `relctl image` built (and pushed): the JSON shape of the contract's `images` list.
public struct BuiltImage: Sendable, Encodable, Equatable {
    public var name: String
    /// `host/path` the image is pushed to.
    var repository: String
    /// The OCI index's digest, `sha256:…`: the multi-platform image's identity.
    var digest: String
    var tags: [String]
    /// `linux/amd64`, `linux/arm64/v8`, … in target order.
    var platforms: [String]
    /// The OCI image layout folder.
    var layout: String
    /// True once every blob, manifest and tag is in the registry.
    public var pushed: Bool = false

    /// Where a base image came from, so its layers can be mounted instead of uploaded.
    var base: ImageReference?
    var reference: ImageReference

    enum CodingKeys: String, CodingKey { case name, repository, digest, tags, platforms, layout, pushed }
}
