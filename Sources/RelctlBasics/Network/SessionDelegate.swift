import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of `URLSessionHTTPClient`'s one session: answers challenges and redirects through
/// `ChallengeCapture`, and hands each task's bytes to its `ResponseSink` as they arrive, so a
/// body is counted (and stopped) while it streams, not after it was buffered whole.
package final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    package let challenges = ChallengeCapture()
    private let sinks = Mutex<[Int: ResponseSink]>([:])

    /// Before the task is resumed, so no callback can miss its sink.
    package func register(_ sink: ResponseSink, for task: URLSessionTask) {
        sinks.withLock { $0[task.taskIdentifier] = sink }
    }

    private func sink(_ task: URLSessionTask) -> ResponseSink? {
        sinks.withLock { $0[task.taskIdentifier] }
    }

    package func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        challenges.urlSession(session, task: task, didReceive: challenge, completionHandler: completionHandler)
    }

    /// Never lets URLSession follow a redirect: it would copy every header, `Authorization`
    /// included, to the new host. The 3xx comes back as the answer and `RedirectPolicy` decides.
    package func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    package func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        sink(dataTask)?.received(response)
        completionHandler(.allow)
    }

    package func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if sink(dataTask)?.append(data) == false { dataTask.cancel() }
    }

    package func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let sink = sinks.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        sink?.finish(error: error, response: task.response)
    }
}
