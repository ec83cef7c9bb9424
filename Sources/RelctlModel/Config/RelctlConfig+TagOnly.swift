import Foundation
import RelctlBasics

extension RelctlConfig {
    /// A relctl.toml with no `[[target]]`: its releases are a tag and notes only, with no archive
    /// and so no `SHA256SUMS`; commands that read the list treat its absence as "nothing to do".
    public var releasesTagsOnly: Bool { isFromFile && targets.isEmpty }
}
