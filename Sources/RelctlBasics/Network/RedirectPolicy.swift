import Foundation

/// How every relctl client follows redirects (the shared policy of docs/security.md). The
/// transport never lets URLSession follow a redirect on its own: URLSession would copy every
/// header, `Authorization` included, to whatever host the `Location` names. Instead each hop is
/// decided here:
/// - at most `maxHops` redirects;
/// - never from HTTPS to plain HTTP (the hop fails with a message, whatever it carries);
/// - headers that carry secrets (`Authorization`, `Proxy-Authorization`, `Cookie`, GitLab's
///   `PRIVATE-TOKEN` and `JOB-TOKEN`) set by the
///   caller go only to the origin the caller addressed; an `HTTPCredential` goes only to its own
///   origin (the transport checks that on every hop);
/// - 303, and 301/302 after a POST, become a GET without a body (RFC 9110 15.4); 307 and 308 keep
///   the method and the body.
package enum RedirectPolicy {
    package static let maxHops = 10
    package static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]
    package static let secretHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "private-token", "job-token",
    ]

    /// The request a redirect asks for, nil when `response` is not a redirect with a usable
    /// `Location` (the caller then gets the 3xx itself); throws when the hop is refused.
    package static func next(
        after response: HTTPResponse, to request: HTTPRequest, original: HTTPRequest, hops: Int
    ) throws -> HTTPRequest? {
        guard redirectStatuses.contains(response.status), let location = response.header("Location"),
            let target = URL(string: location, relativeTo: request.url)?.absoluteURL
        else { return nil }
        guard let targetOrigin = HTTPOrigin(target) else {
            throw NetworkError.transport(
                request: original.summary, reason: "redirected to \(location), which is not an http(s) URL")
        }
        guard hops < maxHops else {
            throw NetworkError.transport(request: original.summary, reason: "more than \(maxHops) redirects")
        }
        if request.url.scheme?.lowercased() == "https", targetOrigin.scheme == "http" {
            throw NetworkError.transport(
                request: original.summary,
                reason:
                    "redirected from HTTPS to plain HTTP (\(targetOrigin)); relctl never follows a redirect to plain HTTP"
            )
        }
        var next = request
        next.url = target
        if response.status == 303 || (response.status != 307 && response.status != 308 && request.method == "POST") {
            next.method = request.method == "HEAD" ? "HEAD" : "GET"
            next.body = .none
            next.headers = next.headers.filter { $0.key.lowercased() != "content-type" }
        }
        if targetOrigin != HTTPOrigin(original.url) {
            next.headers = next.headers.filter { !secretHeaders.contains($0.key.lowercased()) }
        }
        return next
    }
}
