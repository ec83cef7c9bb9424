import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `HTTPClient` over Foundation's URLSession (libcurl on Linux), for GitHub and the container
/// registries alike. File bodies are handed to the session as files, which it reads in chunks: a
/// 1 GiB asset does not grow the process by 1 GiB. One session, so connections are reused. A 401
/// is a response like any other, whatever challenge it carries (the caller answers it). Redirects
/// are followed here, hop by hop, under `RedirectPolicy`, never by URLSession itself.
package struct URLSessionHTTPClient: HTTPClient {
    private let session: URLSession
    private let configuration: URLSessionConfiguration
    private let delegate = SessionDelegate()

    /// The process's one session (connections reused across every client), the default in `Context`.
    package static let shared = URLSessionHTTPClient(userAgent: "relctl/\(RelctlVersion.version)")

    package init(userAgent: String? = nil) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        if let userAgent { configuration.httpAdditionalHeaders = ["User-Agent": userAgent] }
        self.configuration = configuration
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var current = request
        var hops = 0
        while true {
            let response = try await sendOnce(current)
            guard let next = try RedirectPolicy.next(after: response, to: current, original: request, hops: hops)
            else { return response }
            current = next
            hops += 1
        }
    }

    private func sendOnce(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = request.timeout
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if let credential = request.credential, HTTPOrigin(request.url) == credential.origin {
            urlRequest.setValue(credential.authorization, forHTTPHeaderField: credential.header)
        }
        let data: Data
        let response: URLResponse
        let expired = DeadlineFlag()
        let deadline = request.overallDeadline
        // Cancels the task once the overall deadline passes; a task already finished ignores it.
        // Held weakly: the timer outlives the request by up to the deadline (10 minutes), and a
        // finished task keeps its request, `.data` body included, alive for as long as it is held
        // (a chunked layer upload's PATCHes would all stay resident).
        let arm: @Sendable (URLSessionTask) -> Void = { task in
            DispatchQueue.global().asyncAfter(deadline: .now() + deadline) { [weak task] in
                expired.set()
                task?.cancel()
            }
        }
        do {
            switch request.body {
            case .none:
                (data, response) = try await task(urlRequest, file: nil, request: request, arm: arm)
            case .data(let body):
                urlRequest.httpBody = body
                urlRequest.setValue(String(body.count), forHTTPHeaderField: "Content-Length")
                (data, response) = try await task(urlRequest, file: nil, request: request, arm: arm)
            case .file(let file, let size):
                urlRequest.setValue(String(size), forHTTPHeaderField: "Content-Length")
                if let progress = request.progress {
                    (data, response) = try await UploadTaskDelegate.upload(
                        urlRequest, fromFile: file, configuration: configuration, limit: request.responseLimit,
                        progress: progress, arm: arm)
                } else {
                    (data, response) = try await task(urlRequest, file: file, request: request, arm: arm)
                }
            }
        } catch is ResponseSink.TooLarge {
            throw NetworkError.responseTooLarge(
                request: request.summary, limit: request.responseLimit, streamed: request.responseFile != nil)
        } catch _ where expired.isSet {
            throw NetworkError.transport(
                request: request.summary,
                reason:
                    "no complete answer within \(Int(deadline.rounded(.up))) s, the overall deadline of a request (RELCTL_HTTP_DEADLINE)"
            )
        } catch let error as URLError {
            throw NetworkError.transport(request: request.summary, reason: Self.describe(error))
        } catch {
            throw NetworkError.transport(request: request.summary, reason: error.localizedDescription)
        }
        guard let http = response as? HTTPURLResponse else {
            throw NetworkError.transport(request: request.summary, reason: "the answer is not HTTP")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data)
    }

    /// One task on the shared session, its answer collected by a `ResponseSink` (in memory, or in
    /// `responseFile`) up to the request's `responseLimit`; a challenged request comes back
    /// cancelled, and its 401 (kept by `ChallengeCapture`) is the answer.
    private func task(
        _ urlRequest: URLRequest, file: URL?, request: HTTPRequest, arm: @escaping @Sendable (URLSessionTask) -> Void
    ) async throws -> (Data, URLResponse) {
        var output: FileHandle?
        if let responseFile = request.responseFile {
            try FileSystem.createFile(responseFile, contents: Data())
            guard let handle = FileHandle(forWritingAtPath: responseFile.path) else {
                throw NetworkError.transport(
                    request: request.summary, reason: "cannot write the answer to \(responseFile.path)")
            }
            output = handle
        }
        let delegate = self.delegate
        let session = self.session
        do {
            return try await withCheckedThrowingContinuation { continuation in
                let sink = ResponseSink(limit: request.responseLimit, file: output, continuation: continuation)
                let task: URLSessionTask =
                    if let file {
                        session.uploadTask(with: urlRequest, fromFile: file)
                    } else {
                        session.dataTask(with: urlRequest)
                    }
                delegate.register(sink, for: task)
                task.resume()
                arm(task)
            }
        } catch {
            if let url = urlRequest.url, (error as NSError).code == NSURLErrorCancelled,
                let challenged = delegate.challenges.takeChallenged(url),
                let response = HTTPURLResponse(
                    url: url, statusCode: challenged.status, httpVersion: "HTTP/1.1", headerFields: challenged.headers)
            {
                return (Data(), response)
            }
            // Nothing half-written is left where the caller looks for the answer.
            if let responseFile = request.responseFile { try? FileSystem.remove(responseFile) }
            throw error
        }
    }

    private static func describe(_ error: URLError) -> String {
        switch error.code {
        case .timedOut: return "timed out (no progress for the request's timeout)"
        case .networkConnectionLost: return "the connection was lost"
        case .cannotConnectToHost: return "cannot connect to the host"
        case .cannotFindHost: return "unknown host"
        case .notConnectedToInternet: return "no network"
        default: return error.localizedDescription
        }
    }
}

/// Set once a request's overall deadline has passed, so the cancellation it causes is reported
/// as the deadline and not as a cancelled request.
package final class DeadlineFlag: Sendable {
    private let passed = Mutex(false)

    package func set() { passed.withLock { $0 = true } }
    package var isSet: Bool { passed.withLock { $0 } }
}
