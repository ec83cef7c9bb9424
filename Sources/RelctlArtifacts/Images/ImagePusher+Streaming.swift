import RelctlBasics

extension ImagePusher {
    /// Whether `image --push` uploads each new layer while it is compressed (`RELCTL_IMAGE_STREAM=1`).
    ///
    /// Off by default because the contract says a push sends a blob only when the registry lacks
    /// it: a layer's digest is known only once it is compressed, so a streamed layer cannot be
    /// asked about first, and a registry that already holds it (a CI job re-run on a fresh
    /// machine) receives it again. Streaming trades that bandwidth for wall time
    /// (docs/images.md, "Uploading while compressing"); layers from the cache are asked about
    /// first either way.
    package static func streamsLayers(_ environment: [String: String]) -> Bool {
        environment["RELCTL_IMAGE_STREAM"] == "1"
    }
}
