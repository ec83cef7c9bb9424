import Foundation
import RelctlBasics

/// docs.gitlab.com, "Merge requests API": `GET /projects/:id/merge_requests` filtered with
/// `source_branch` and `state=opened` (offset pagination, `X-Next-Page`), `POST
/// /projects/:id/merge_requests`, `PUT /projects/:id/merge_requests/:iid` (title, description,
/// `state_event: close`).
extension GitLabAPI: ReleaseRequestAPI {
    private struct MergeRequest: Decodable {
        var iid: Int
        var title: String
        var description: String?
        var web_url: String
        var source_branch: String
        var target_branch: String
        var request: ForgeRequest {
            ForgeRequest(
                number: iid, title: title, body: description ?? "", head: source_branch, base: target_branch,
                url: web_url)
        }
    }

    package var noun: String { "merge request" }
    package var place: String { project.description }

    package func openRequests(head: String) async throws -> [ForgeRequest] {
        let found: [MergeRequest] = try await listAll(
            "/merge_requests", query: ["state": "opened", "source_branch": head])
        return found.map(\.request).filter { $0.head == head }
    }

    package func create(head: String, base: String, title: String, body: String) async throws -> ForgeRequest {
        struct Fields: Encodable {
            var source_branch: String, target_branch: String, title: String, description: String
            /// The branch is relctl's: GitLab deletes it once the request is merged.
            var remove_source_branch: Bool
        }
        let response = try await client.send(
            "POST", url("/merge_requests"),
            json: Fields(
                source_branch: head, target_branch: base, title: title, description: body, remove_source_branch: true),
            expect: [201])
        return try client.decode(MergeRequest.self, response, request: "POST merge_requests").request
    }

    package func update(_ number: Int, title: String, body: String) async throws -> ForgeRequest {
        struct Fields: Encodable { var title: String, description: String }
        let response = try await client.send(
            "PUT", url("/merge_requests/\(number)"), json: Fields(title: title, description: body), expect: [200])
        return try client.decode(MergeRequest.self, response, request: "PUT merge_requests/\(number)").request
    }

    package func close(_ number: Int) async throws {
        struct Fields: Encodable { var state_event: String }
        _ = try await client.send(
            "PUT", url("/merge_requests/\(number)"), json: Fields(state_event: "close"), expect: [200])
    }
}
