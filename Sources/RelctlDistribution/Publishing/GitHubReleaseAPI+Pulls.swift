import Foundation
import RelctlBasics

/// docs.github.com, "REST API endpoints for pull requests": `GET /repos/{owner}/{repo}/pulls`
/// filtered with `head=OWNER:BRANCH` and `state=open` (Link pagination), `POST …/pulls`,
/// `PATCH …/pulls/{number}` (title, body, `state: closed`).
extension GitHubReleaseAPI: ReleaseRequestAPI {
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
        var components = URLComponents(
            url: repositoryURL.appendingPathComponent("pulls"), resolvingAgainstBaseURL: false)
        components?.queryItems = [
            URLQueryItem(name: "state", value: "open"),
            URLQueryItem(name: "head", value: "\(repository.owner):\(head)"),
        ]
        guard let url = components?.url else { return [] }
        let pulls: [Pull] = try await listAll(url)
        // The filter is the server's; a server that ignored it must not make us adopt another branch's request.
        return pulls.map(\.request).filter { $0.head == head }
    }

    package func create(head: String, base: String, title: String, body: String) async throws -> ForgeRequest {
        struct Fields: Encodable { var title: String, head: String, base: String, body: String }
        let response = try await client.send(
            "POST", repositoryURL.appendingPathComponent("pulls"),
            json: Fields(title: title, head: head, base: base, body: body), expect: [201])
        return try client.decode(Pull.self, response, request: "POST pulls").request
    }

    package func update(_ number: Int, title: String, body: String) async throws -> ForgeRequest {
        struct Fields: Encodable { var title: String, body: String }
        let response = try await client.send(
            "PATCH", repositoryURL.appendingPathComponent("pulls/\(number)"), json: Fields(title: title, body: body),
            expect: [200])
        return try client.decode(Pull.self, response, request: "PATCH pulls/\(number)").request
    }

    package func close(_ number: Int) async throws {
        struct Fields: Encodable { var state: String }
        _ = try await client.send(
            "PATCH", repositoryURL.appendingPathComponent("pulls/\(number)"), json: Fields(state: "closed"),
            expect: [200])
    }
}
