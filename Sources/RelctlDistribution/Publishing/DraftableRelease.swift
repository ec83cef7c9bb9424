import Foundation
import RelctlBasics

/// A forge's release, as far as choosing this tag's release goes.
package protocol DraftableRelease {
    var id: Int { get }
    var tagName: String { get }
    var draft: Bool { get }
}

extension GitHubRelease: DraftableRelease {}
extension GiteaRelease: DraftableRelease {}
