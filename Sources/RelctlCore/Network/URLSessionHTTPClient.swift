import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `HTTPClient` over Foundation's URLSession (libcurl on Linux). File bodies are handed to the
/// session as files, which it reads in chunks: a 1 GiB asset does not grow the process by 1 GiB.
public struct URLSessionHTTPClient: HTTPClient {
    private let session: URLSession
    private let configuration: URLSessionConfiguration

    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        self.configuration = configuration
        session = URLSession(configuration: configuration)
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = request.timeout
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let data: Data
        let response: URLResponse
        do {
            switch request.body {
            case .none:
                (data, response) = try await session.data(for: urlRequest)
            case .data(let body):
                (data, response) = try await session.upload(for: urlRequest, from: body)
            case .file(let file, let size):
                urlRequest.setValue(String(size), forHTTPHeaderField: "Content-Length")
                (data, response) = try await UploadTaskDelegate.upload(
                    urlRequest, fromFile: file, configuration: configuration, progress: request.progress ?? { _ in })
            }
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
