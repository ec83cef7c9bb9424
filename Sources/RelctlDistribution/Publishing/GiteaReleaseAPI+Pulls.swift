import Foundation
import RelctlBasics

/// Gitea's and Forgejo's swagger: `GET /repos/{owner}/{repo}/pulls?state=open` (`page`/`limit`,
/// a Link header; there is no head filter, so every page is read and filtered here), `POST
/// …/pulls`, `PATCH …/pulls/{index}` (title, body, `state: closed`; answered with 201).
extension GiteaReleaseAPI: ReleaseRequestAPI {
    private struct Pull: Decodable {
        struct Ref: Decodable { package var ref: String }
        var number: Int
        var title: String
        var body: String?
        var html_url: String
        var head: Ref
        var base: Ref
        var request: ForgeRequest {
            ForgeRequest(number: number, title: title, body: body ?? "", head: head.ref, base: base.ref, url: html_url)
        }
    }

    package var noun: String { "pull request" }
    package var place: String { repository.description }

    package func openRequests(head: String) async throws -> [ForgeRequest] {
        let pulls: [Pull] = try await listAll("pulls", query: [URLQueryItem(name: "state", value: "open")])
        return pulls.map(\.request).filter { $0.head == head }
    }

    package func create(head: String, base: String, title: String, body: String) async throws -> ForgeRequest {
        struct Fields: Encodable { var head: String, base: String, title: String, body: String }
        let response = try await client.send(
            "POST", repositoryURL.appendingPathComponent("pulls"),
            json: Fields(head: head, base: base, title: title, body: body), expect: [201])
        return try client.decode(Pull.self, response, request: "POST pulls").request
    }

    package func update(_ number: Int, title: String, body: String) async throws -> ForgeRequest {
        struct Fields: Encodable { var title: String, body: String }
        let response = try await client.send(
            "PATCH", repositoryURL.appendingPathComponent("pulls/\(number)"), json: Fields(title: title, body: body),
            expect: [200, 201])
        return try client.decode(Pull.self, response, request: "PATCH pulls/\(number)").request
    }

    package func close(_ number: Int) async throws {
        struct Fields: Encodable { var state: String }
        _ = try await client.send(
            "PATCH", repositoryURL.appendingPathComponent("pulls/\(number)"), json: Fields(state: "closed"),
            expect: [200, 201])
    }
}
