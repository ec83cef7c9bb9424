import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where one task's answer goes as it arrives: into memory, or into a file for a blob or an
/// archive, counted against the request's limit. Over the limit the task is cancelled and the
/// caller gets `TooLarge`: an endless or oversized body can neither fill memory nor the disk.
package final class ResponseSink: Sendable {
    /// The body passed the request's `responseLimit`.
    package struct TooLarge: Error {}

    private struct State {
        var continuation: CheckedContinuation<(Data, URLResponse), any Error>?
        var data = Data()
        var file: FileHandle?
        var received: Int64 = 0
        var response: URLResponse?
        var overLimit = false
        var writeError: (any Error)?
    }

    package let limit: Int64
    private let state: Mutex<State>

    package init(limit: Int64, file: FileHandle?, continuation: CheckedContinuation<(Data, URLResponse), any Error>) {
        self.limit = limit
        state = Mutex(State(continuation: continuation, file: file))
    }

    package func received(_ response: URLResponse) {
        state.withLock { $0.response = response }
    }

    /// Keeps `data`; false when the task must stop (over the limit, or the file cannot be written).
    package func append(_ data: Data) -> Bool {
        state.withLock { state in
            guard !state.overLimit, state.writeError == nil else { return false }
            state.received += Int64(data.count)
            if state.received > limit {
                state.overLimit = true
                state.data = Data()
                return false
            }
            if let file = state.file {
                do { try file.write(contentsOf: data) } catch {
                    state.writeError = error
                    return false
                }
            } else {
                state.data.append(data)
            }
            return true
        }
    }

    /// Resumes the waiting caller once, with the answer or why there is none.
    package func finish(error: (any Error)?, response: URLResponse?) {
        typealias Outcome = Result<(Data, URLResponse), any Error>
        let (continuation, outcome) = state.withLock {
            state -> (CheckedContinuation<(Data, URLResponse), any Error>?, Outcome) in
            defer { state.continuation = nil }
            try? state.file?.close()
            if state.overLimit { return (state.continuation, .failure(TooLarge())) }
            if let failure = state.writeError ?? error { return (state.continuation, .failure(failure)) }
            guard let response = state.response ?? response else {
                return (state.continuation, .failure(URLError(.badServerResponse)))
            }
            return (state.continuation, .success((state.data, response)))
        }
        continuation?.resume(with: outcome)
    }
}
