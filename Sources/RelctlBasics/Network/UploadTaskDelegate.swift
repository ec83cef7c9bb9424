import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs one file upload as a delegate-driven task, so the bytes sent so far can be reported
/// while the session streams the file from disk. The answer is collected by a `ResponseSink`
/// under the request's limit, as on the shared session.
package final class UploadTaskDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let sink = Mutex<ResponseSink?>(nil)
    private let progress: @Sendable (Int64) -> Void

    package init(progress: @escaping @Sendable (Int64) -> Void) {
        self.progress = progress
    }

    /// Uploads `file` with `request` on a session of its own (invalidated afterwards).
    package static func upload(
        _ request: URLRequest, fromFile file: URL, configuration: URLSessionConfiguration, limit: Int64,
        progress: @escaping @Sendable (Int64) -> Void, arm: @escaping @Sendable (URLSessionTask) -> Void
    ) async throws -> (Data, URLResponse) {
        let delegate = UploadTaskDelegate(progress: progress)
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        return try await withCheckedThrowingContinuation { continuation in
            delegate.sink.withLock { $0 = ResponseSink(limit: limit, file: nil, continuation: continuation) }
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
        sink.withLock { $0 }?.received(response)
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
        if sink.withLock({ $0 })?.append(data) == false { dataTask.cancel() }
    }

    package func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let sink = sink.withLock { sink in
            defer { sink = nil }
            return sink
        }
        sink?.finish(error: error, response: task.response)
    }
}
