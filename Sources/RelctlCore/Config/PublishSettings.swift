import Foundation
import RelctlBasics

/// `[publish]`: where `relctl publish` sends the release.
public struct PublishSettings: Sendable {
    /// `OWNER/REPO` on GitHub; nil means `GITHUB_REPOSITORY`, else the release remote's URL.
    public var github: String?
    package init() {}
}
