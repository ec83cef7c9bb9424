import Foundation

/// The one network side effect: send a request, get a response. A failure to get any response
/// (refused, reset, timed out) throws `NetworkError.transport`; every HTTP status is a response.
public protocol HTTPClient: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
