import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Hands 401 answers back to relctl instead of letting URLSession handle them. relctl answers
/// challenges itself (registry Bearer tokens are not something URLSession knows), and on Linux a
/// 401 with a Basic challenge and no delegate never completes its task at all. So each challenge's
/// failure response is kept and the task cancelled; `URLSessionHTTPClient` turns the cancellation
/// back into that response.
package final class ChallengeCapture: NSObject, URLSessionTaskDelegate, Sendable {
    package struct Captured: Sendable {
        package var status: Int
        package var headers: [String: String]
    }

    /// By request URL, oldest first: a push sends requests concurrently, sometimes to the same URL
    /// (two uploads open sessions at `…/blobs/uploads/` at once), and their challenges are alike.
    private let captured = Mutex<[String: [Captured]]>([:])

    package func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard let response = challenge.failureResponse as? HTTPURLResponse else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        var headers: [String: String] = [:]
        for (key, value) in response.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key] = value }
        }
        let entry = Captured(status: response.statusCode, headers: headers)
        let key = task.originalRequest?.url?.absoluteString ?? ""
        captured.withLock { $0[key, default: []].append(entry) }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    /// Never lets URLSession follow a redirect: it would copy every header, `Authorization`
    /// included, to the new host. The 3xx comes back as the answer and `RedirectPolicy` decides.
    package func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    /// The challenged response of a request, once (nil when it was not challenged).
    package func takeChallenged(_ url: URL) -> Captured? {
        captured.withLock { captured in
            guard var entries = captured[url.absoluteString], !entries.isEmpty else { return nil }
            let first = entries.removeFirst()
            captured[url.absoluteString] = entries.isEmpty ? nil : entries
            return first
        }
    }
}
