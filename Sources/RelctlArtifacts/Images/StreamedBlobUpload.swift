import Foundation
import RelctlBasics
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Uploads a layer while it is being compressed: a chunked blob upload of the OCI distribution
/// spec ("Pushing a blob in chunks": `POST` opens the session, each `PATCH` sends the next bytes
/// with `Content-Range`, the closing `PUT ?digest=` carries the last ones), following the layer's
/// file as the compressor's gzip members land in it. The wall time of `image --push` is then about
/// the longer of compressing and uploading, not their sum. The bytes, the digest and the layout
/// are exactly those of a layer written without it: the upload only reads the file.
///
/// A registry that refuses chunks (no `Location`, a `PATCH` answered with anything but 202, a
/// `Range` that does not match what was sent) is not an error here: the session is cancelled and
/// the outcome says why, and the push then HEADs the blob and uploads it whole, as it does for
/// every other blob. The requests go through the registry client, so its retry and rate-limit
/// rules apply, and its credentials go only to the registry's own origin (an upload `Location` on
/// another host gets none); the blob counts as uploaded only once the registry itself says it
/// holds it (a HEAD after the closing `PUT`).
package final class StreamedBlobUpload: Sendable {
    /// How the upload ended.
    package enum Outcome: Sendable, Equatable {
        /// The registry holds the blob.
        case landed(digest: String, size: Int64)
        /// Not uploaded this way (the reason, for the log line); the push uploads it whole.
        case refused(String)
    }

    /// Chunks smaller than this are held back for the next `PATCH` (a registry may ask for more
    /// with `OCI-Chunk-Min-Length`); each request costs a round trip and the HTTP stack's CPU.
    package static let minimumChunk: Int64 = 2 << 20
    /// The most one `PATCH` carries, read into memory from the file.
    package static let maximumChunk: Int64 = 4 << 20

    private struct State {
        var file: FileHandle?
        var available: Int64 = 0
        var end: (digest: String, size: Int64)?
        var abandoned = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private enum Event {
        case bytes(Int64)
        case end(digest: String, size: Int64)
        case abandoned
    }

    private let state = Mutex(State())
    private let connection: ImagePusher.Connection
    private let result = Mutex<Task<Outcome, Never>?>(nil)

    package init(connection: ImagePusher.Connection) {
        self.connection = connection
    }

    /// Starts the upload (the session is opened at once, before the first bytes exist).
    package func start() {
        let task = Task { await self.run() }
        result.withLock { $0 = task }
    }

    /// The outcome, once the upload ended.
    package var outcome: Outcome {
        get async {
            guard let task = result.withLock({ $0 }) else { return .refused("never started") }
            return await task.value
        }
    }

    // MARK: Told by the layer writer

    /// The temporary file the compressed layer is written to. Opened for reading now, so the
    /// upload keeps reading it after the writer renames it into the layout.
    package func started(file: URL) {
        let handle = FileHandle(forReadingAtPath: file.path)
        update { $0.file = handle }
    }

    /// The compressed bytes now in the file.
    package func written(total: Int64) {
        update { $0.available = total }
    }

    /// The layer is complete: this is its digest and size.
    package func finished(digest: String, size: Int64) {
        update {
            $0.available = size
            $0.end = (digest, size)
        }
    }

    /// The layer will not be completed: cancel the session.
    package func abandon() {
        update { $0.abandoned = true }
    }

    private func update(_ change: (inout State) -> Void) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            change(&state)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Waits until at least `minimum` bytes past `sent` are in the file, or the layer ended.
    private func next(after sent: Int64, minimum: Int64) async -> Event {
        while true {
            let ready = state.withLock { state -> Event? in
                if state.abandoned { return .abandoned }
                if let end = state.end { return .end(digest: end.digest, size: end.size) }
                return state.available - sent >= minimum ? .bytes(state.available) : nil
            }
            if let ready { return ready }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.abandoned || state.end != nil || state.available - sent >= minimum { return true }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }

    private func read(_ offset: Int64, _ count: Int64) throws -> Data {
        guard let file = state.withLock({ $0.file }) else {
            throw ImageError.writeFailed(path: "the layer being written", reason: "cannot read it back for the upload")
        }
        try file.seek(toOffset: UInt64(offset))
        let data = try file.read(upToCount: Int(count)) ?? Data()
        guard data.count == Int(count) else {
            throw ImageError.writeFailed(
                path: "the layer being written", reason: "read \(data.count) of \(count) bytes at \(offset)")
        }
        return data
    }

    // MARK: The upload

    private func run() async -> Outcome {
        let outcome: Outcome
        do {
            outcome = try await upload()
        } catch {
            outcome = .refused((error as? RelctlError)?.message ?? "\(error)")
        }
        try? state.withLock { $0.file }?.close()
        return outcome
    }

    private func upload() async throws -> Outcome {
        let client = try await connection.opened.value.client
        let opened = try await client.send("POST", "blobs/uploads/", headers: ["Content-Length": "0"])
        guard opened.status == 202, let first = opened.header("Location"), let location = client.url(location: first)
        else {
            return .refused("opening a chunked upload answered \(opened.status) without an upload Location")
        }
        var session = Session(client: client, location: location)
        let minimum = max(Self.minimumChunk, opened.header("OCI-Chunk-Min-Length").flatMap { Int64($0) } ?? 0)
        let maximum = max(Self.maximumChunk, minimum)
        while true {
            switch await next(after: session.sent, minimum: minimum) {
            case .abandoned:
                await session.cancel()
                return .refused("the layer was not finished")
            case .bytes(let available):
                if let refused = try await session.patch(min(available - session.sent, maximum), read) {
                    return .refused(refused)
                }
            case .end(let digest, let size):
                // Memory stays at one chunk however far the compressor got ahead of the network.
                while size - session.sent > maximum {
                    if let refused = try await session.patch(maximum, read) { return .refused(refused) }
                }
                if let refused = try await session.close(digest: digest, size: size, read) {
                    return .refused(refused)
                }
                return .landed(digest: digest, size: size)
            }
        }
    }

    /// One open upload session: where the next request goes and how many bytes the registry holds.
    private struct Session {
        let client: RegistryClient
        var location: URL
        var sent: Int64 = 0

        init(client: RegistryClient, location: URL) {
            self.client = client
            self.location = location
        }

        /// Sends the next `count` bytes; the reason when the registry refuses them (the session
        /// is cancelled then).
        mutating func patch(_ count: Int64, _ read: (Int64, Int64) throws -> Data) async throws -> String? {
            let end = sent + count - 1
            let response = try await client.send(
                "PATCH", "", absolute: location,
                headers: ["Content-Type": "application/octet-stream", "Content-Range": "\(sent)-\(end)"],
                body: .data(try read(sent, count)))
            guard response.status == 202, let next = response.header("Location").flatMap(client.url(location:)),
                response.header("Range").map({ StreamedBlobUpload.rangeEnd($0) == end }) ?? true
            else {
                await cancel()
                let missing = response.status == 202 && response.header("Location") == nil ? " without a Location" : ""
                return "a chunk (PATCH \(sent)-\(end)) was answered \(response.status)\(missing)"
            }
            sent += count
            location = next
            return nil
        }

        /// The closing `PUT ?digest=`, carrying the bytes not sent yet, as the spec allows; then
        /// the registry must say it holds the blob.
        mutating func close(digest: String, size: Int64, _ read: (Int64, Int64) throws -> Data) async throws -> String?
        {
            var headers = ["Content-Type": "application/octet-stream"]
            var body = HTTPRequest.Body.none
            if size > sent {
                headers["Content-Range"] = "\(sent)-\(size - 1)"
                body = .data(try read(sent, size - sent))
            } else {
                headers["Content-Length"] = "0"
            }
            guard
                let url = client.url(
                    location: location.absoluteString, adding: URLQueryItem(name: "digest", value: digest))
            else { return "cannot form the closing URL from \(location)" }
            let response = try await client.send("PUT", "", absolute: url, headers: headers, body: body)
            guard response.status == 201 else {
                await cancel()
                return "closing the chunked upload (PUT) was answered \(response.status)"
            }
            try await ImagePusher.confirmLanded(client, digest, uploadedTo: url, status: response.status)
            return nil
        }

        /// Cancels the session (the spec's `DELETE <location>`); failures are ignored, as the spec says.
        func cancel() async {
            _ = try? await client.send("DELETE", "", absolute: location, headers: ["Content-Length": "0"])
        }
    }

    /// `0-N` (some registries send `bytes=0-N`): N.
    fileprivate static func rangeEnd(_ header: String) -> Int64? {
        header.split(separator: "-").last.flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
    }
}
