import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs one file upload as a delegate-driven task, so the bytes sent so far can be reported
/// while the session streams the file from disk.
package final class UploadTaskDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct State {
        var continuation: CheckedContinuation<(Data, URLResponse), any Error>?
        var data = Data()
        var response: URLResponse?
    }

    private let state = Mutex(State())
    private let progress: @Sendable (Int64) -> Void

    package init(progress: @escaping @Sendable (Int64) -> Void) {
        self.progress = progress
    }

    /// Uploads `file` with `request` on a session of its own (invalidated afterwards).
    package static func upload(
        _ request: URLRequest, fromFile file: URL, configuration: URLSessionConfiguration,
        progress: @escaping @Sendable (Int64) -> Void, arm: @escaping @Sendable (URLSessionTask) -> Void
    ) async throws -> (Data, URLResponse) {
        let delegate = UploadTaskDelegate(progress: progress)
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        return try await withCheckedThrowingContinuation { continuation in
            delegate.state.withLock { $0.continuation = continuation }
            let task = session.uploadTask(with: request, fromFile: file)
            task.resume()
            arm(task)
        }
    }

    package func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        progress(totalBytesSent)
    }

    package func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        state.withLock { $0.response = response }
        completionHandler(.allow)
    }

    /// The 3xx is the answer; `URLSessionHTTPClient` follows it under `RedirectPolicy`.
    package func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    package func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        state.withLock { $0.data.append(data) }
    }

    package func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, data, response) = state.withLock { state in
            defer { state.continuation = nil }
            return (state.continuation, state.data, state.response ?? task.response)
        }
        if let error {
            continuation?.resume(throwing: error)
        } else if let response {
            continuation?.resume(returning: (data, response))
        } else {
            continuation?.resume(throwing: URLError(.badServerResponse))
        }
    }
}
