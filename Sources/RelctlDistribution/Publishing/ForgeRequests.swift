import Foundation
import RelctlBasics

/// One forge's pull-request (GitLab: merge-request) document and the bodies its calls take: the
/// only part of `release-pr`'s calls that differs between the forges, beside their URLs.
package protocol ForgeRequestDocument: Decodable, Sendable {
    /// The request as relctl handles one.
    var request: ForgeRequest { get }
    static func creating(head: String, base: String, title: String, body: String) -> any Encodable
    static func updating(title: String, body: String) -> any Encodable
    static var closing: any Encodable { get }
}

/// `release-pr`'s calls on one forge, through its `ForgeAPIClient`: the open requests from a head
/// branch (every page), create, update the title and body, close.
package struct ForgeRequests<Document: ForgeRequestDocument>: ReleaseRequestAPI {
    package var client: ForgeAPIClient
    package var noun: String
    package var place: String
    /// The collection's name under the repository or project (`pulls`, `merge_requests`): created
    /// by a POST to it, a request addressed as `NAME/NUMBER`; the calls are named so in messages.
    package var collection: String
    /// The URL of a path under the repository or project.
    package var url: @Sendable (_ path: String) -> URL
    /// The open requests from a head branch, as the forge filters and pages them.
    package var listOpen: @Sendable (_ head: String) async throws -> [Document]
    /// How a request is changed (GitHub's and Gitea's PATCH, GitLab's PUT) and the statuses that
    /// answer it (Gitea answers a PATCH with 201).
    package var changeMethod: String
    package var changed: Set<Int>

    package func openRequests(head: String) async throws -> [ForgeRequest] {
        // The filter is the server's (where it has one); a server that ignored it must not make
        // us adopt another branch's request.
        try await listOpen(head).map(\.request).filter { $0.head == head }
    }

    package func create(head: String, base: String, title: String, body: String) async throws -> ForgeRequest {
        try await client.call(
            "POST", url(collection), json: Document.creating(head: head, base: base, title: title, body: body),
            expect: [201], as: Document.self, shown: "POST \(collection)"
        ).request
    }

    package func update(_ number: Int, title: String, body: String) async throws -> ForgeRequest {
        try await client.call(
            changeMethod, url("\(collection)/\(number)"), json: Document.updating(title: title, body: body),
            expect: changed, as: Document.self, shown: "\(changeMethod) \(collection)/\(number)"
        ).request
    }

    package func close(_ number: Int) async throws {
        _ = try await client.send(changeMethod, url("\(collection)/\(number)"), json: Document.closing, expect: changed)
    }
}

extension ForgeRequests where Document == PullRequestDocument {
    /// GitHub's and Gitea's pull requests: `pulls` under the repository's URL, changed with PATCH
    /// (answered with one of `changed`), the open ones from a head listed by `listOpen`.
    package static func pulls(
        client: ForgeAPIClient, repository: GitHubRepository, at repositoryURL: URL, changed: Set<Int>,
        listOpen: @escaping @Sendable (_ head: String) async throws -> [PullRequestDocument]
    ) -> Self {
        ForgeRequests(
            client: client, noun: "pull request", place: repository.description, collection: "pulls",
            url: { repositoryURL.appendingPathComponent($0) }, listOpen: listOpen, changeMethod: "PATCH",
            changed: changed)
    }
}

/// A pull request as GitHub's REST API returns it, and as Gitea's and Forgejo's API v1 copy it
/// (`number`, `title`, `body`, `html_url`, `head`/`base` with `ref`), with the bodies their calls
/// take (`title`, `head`, `base`, `body`; `state: closed`). The repository of a branch: Gitea's
/// `repo_id`, else `repo.id` (GitHub's; null when the head's fork was deleted).
package struct PullRequestDocument: ForgeRequestDocument {
    struct Repository: Decodable { var id: Int }
    struct Ref: Decodable {
        var ref: String
        var repo_id: Int?
        var repo: Repository?
        var repository: Int? { repo_id ?? repo?.id }
    }
    var number: Int
    var title: String
    var body: String?
    var html_url: String
    var head: Ref
    var base: Ref

    package var request: ForgeRequest {
        ForgeRequest(
            number: number, title: title, body: body ?? "", head: head.ref, base: base.ref, url: html_url,
            sourceRepository: head.repository, targetRepository: base.repository)
    }

    struct Creating: Encodable { var title: String, head: String, base: String, body: String }
    struct Updating: Encodable { var title: String, body: String }
    struct Closing: Encodable { var state = "closed" }

    package static func creating(head: String, base: String, title: String, body: String) -> any Encodable {
        Creating(title: title, head: head, base: base, body: body)
    }
    package static func updating(title: String, body: String) -> any Encodable { Updating(title: title, body: body) }
    package static var closing: any Encodable { Closing() }
}
