import Foundation
import RelctlBasics

/// Which of a tag's releases a publisher works on, the same on every forge with drafts.
package enum ReleaseChoice {
    /// The published one when there is one (a forge allows only one), else the oldest draft
    /// (lowest id), so every run picks the same among several drafts; the others are named.
    package static func choose<Release: DraftableRelease>(
        _ releases: [Release], tag: String, console: Console
    ) -> Release? {
        let matching = releases.filter { $0.tagName == tag }
        let drafts = matching.filter(\.draft).sorted { $0.id < $1.id }
        if let published = matching.first(where: { !$0.draft }) {
            if !drafts.isEmpty {
                console.warning(
                    "\(tag) is published (release \(published.id)); ignoring \(drafts.count) other draft(s) for it: \(drafts.map { String($0.id) }.joined(separator: ", "))"
                )
            }
            return published
        }
        if drafts.count > 1 {
            console.warning(
                "\(drafts.count) drafts exist for \(tag) (ids \(drafts.map { String($0.id) }.joined(separator: ", "))); using the oldest, \(drafts[0].id); delete the others on the releases page"
            )
        }
        return drafts.first
    }
}
