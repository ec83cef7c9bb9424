import Foundation

/// A pull request (GitLab: merge request) as relctl handles one: the number the API addresses it
/// by (GitHub's and Gitea's `number`, GitLab's `iid`), its title and body, its branches and its page.
package struct ForgeRequest: Sendable, Equatable {
    package var number: Int
    package var title: String
    package var body: String
    package var head: String
    package var base: String
    package var url: String

    package init(number: Int, title: String, body: String, head: String, base: String, url: String) {
        self.number = number
        self.title = title
        self.body = body
        self.head = head
        self.base = base
        self.url = url
    }
}
