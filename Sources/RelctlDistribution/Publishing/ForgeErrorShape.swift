import Foundation
import RelctlBasics

/// What one forge's error documents say beyond what they all share, and the hint a status earns
/// there (which token variable to check, which scope the token needs).
package struct ForgeErrorShape: Sendable {
    /// The key of the link to the documentation: GitHub's `documentation_url`, Gitea's `url`; nil
    /// where the forge sends none (GitLab).
    package var documentationKey: String?
    /// Added to the message in parentheses, by status.
    package var hints: [Int: String]

    package init(documentationKey: String?, hints: [Int: String]) {
        self.documentationKey = documentationKey
        self.hints = hints
    }
}

extension ForgeAPIClient {
    /// An error answer read into an error, the same way for every forge: `message` (a text, or
    /// GitLab's map of fields to their complaints), else `error`, else the start of the body;
    /// `errors` (GitHub's items, Gitea's texts) as details; the forge's documentation link and its
    /// hint for the status. `response` is masked already.
    package func apiError(_ response: HTTPResponse, request: String) -> PublishError {
        let document = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any]
        var message: String
        var details: [String] = []
        if let text = document?["message"] as? String {
            message = text
        } else if let fields = document?["message"] as? [String: Any] {
            message = "rejected"
            details = fields.keys.sorted().map { key in
                "\(key) \((fields[key] as? [String])?.joined(separator: ", ") ?? "\(fields[key] ?? "")")"
            }
        } else if let text = document?["error"] as? String {
            message = text
        } else {
            message = response.text.isEmpty ? "no message" : String(response.text.prefix(300))
        }
        for item in document?["errors"] as? [Any] ?? [] {
            if let text = item as? String {
                details.append(text)
            } else if let fields = item as? [String: Any] {
                // GitHub's validation items: which resource and field, the code, and a message.
                let parts = ["resource", "field", "code", "message"].compactMap { fields[$0] as? String }
                details.append(parts.joined(separator: " "))
            }
        }
        if let hint = errors.hints[response.status] { message += " (\(hint))" }
        let documentation = errors.documentationKey.flatMap { document?[$0] as? String }
        return .api(
            request: request, status: response.status, message: message, documentationURL: documentation,
            details: details)
    }
}
