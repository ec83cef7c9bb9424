import CDeflate
import Crypto
import Foundation
import RelctlBasics

/// `[repository] previous` as a URL: the published repository fetched into a scratch folder laid
/// out as a previous run wrote it (`apt/`, `dnf/`), so the builders extend it exactly as they
/// extend a checked-out folder. Every file is checked before it is kept: the signed indexes
/// (InRelease, repomd.xml + .asc) against the repository key, every index and package against the
/// size and SHA-256 the signed chain gives, each read cut off at that size. Over HTTPS with the
/// client `publish` uses (plain HTTP only to a loopback host); nothing is ever sent but GETs
/// without credentials, and the shared redirect policy (no HTTPS to HTTP, at most 10 hops) applies.
package struct RemoteRepository {
    /// The most relctl reads of what a published repository serves.
    package enum Limits {
        /// InRelease, repomd.xml, repomd.xml.asc: a few kB for relctl's own repositories.
        package static let signedIndex: Int64 = 1 << 20
        /// One Packages file, or one compressed or uncompressed repodata document.
        package static let index: Int64 = 256 << 20
        /// One .deb or .rpm (GitHub's cap for a release asset is 2 GiB).
        package static let package: Int64 = 4 << 30
        /// Packages listed by one repository.
        package static let packages = 100_000
    }

    package let base: URL
    /// Where the files come from: a server, or a folder read under the read rule (`ProjectFile`,
    /// held to the folder: a link in it leading outside is refused, exit 2, naming it).
    private enum Source {
        case http(any HTTPClient)
        case folder(URL)
    }
    private let source: Source
    private let keys: [[UInt8]: RepositoryVerifier.PublicKey]

    /// `[repository] previous` as a folder (issue 55, findings 3 and 4): read exactly as a URL
    /// is, its signed indexes checked with the repository key and every index and package with
    /// the size and SHA-256 the signed chain gives, copied into the scratch folder the builders
    /// extend. Nothing unsigned, and nothing behind a link out of the folder, is ever extended.
    package init(folder: URL, key: OpenPGPSecretKey) throws {
        base = folder.standardizedFileURL
        source = .folder(base)
        keys = try RepositoryVerifier.publicKeys(Data(key.publicKeyring), source: "the repository key")
    }

    /// Where the repository was read from, for a message.
    package var shown: String {
        if case .folder = source { return base.path }
        return base.absoluteString
    }

    /// - Parameter location: the URL as configured (`[repository] previous`).
    package init(location: String, key: OpenPGPSecretKey, http: any HTTPClient) throws {
        guard var url = URL(string: location), let host = url.host, !host.isEmpty,
            let origin = HTTPOrigin(url), url.query == nil, url.fragment == nil
        else {
            throw RepositoryError.badInput(
                path: location, reason: "`[repository] previous` is not a valid http(s) URL of the repository's root")
        }
        guard url.user == nil, url.password == nil else {
            throw RepositoryError.badInput(
                path: location,
                reason:
                    "`[repository] previous` carries credentials; a published repository is read anonymously: name its public URL"
            )
        }
        guard origin.scheme == "https" || origin.isLoopback else {
            throw RepositoryError.badInput(
                path: location,
                reason: "plain http is only accepted for a loopback host; name the repository's https:// URL")
        }
        if !url.path.hasSuffix("/") { url = url.appendingPathComponent("") }
        base = url
        source = .http(http)
        keys = try RepositoryVerifier.publicKeys(Data(key.publicKeyring), source: "the repository key")
    }

    /// Fetches what the configured repositories need into `folder` (`apt/`, `dnf/` under it).
    package func fetch(aptSuite: String?, dnf: Bool, into folder: URL) async throws {
        if let aptSuite {
            try await fetchApt(suite: aptSuite, into: folder.appendingPathComponent(RepositoryBuilder.aptFolder))
        }
        if dnf { try await fetchDnf(into: folder.appendingPathComponent(RepositoryBuilder.dnfFolder)) }
    }

    // MARK: APT

    private func fetchApt(suite: String, into root: URL) async throws {
        let dists = "\(RepositoryBuilder.aptFolder)/dists/\(suite)"
        guard let inRelease = try await document("\(dists)/InRelease") else {
            throw RepositoryError.badInput(
                path: address("\(dists)/InRelease"),
                reason:
                    "`[repository] previous` has no apt suite `\(suite)` here (\(absent)); name the root that holds apt/ and dnf/, or leave `previous` out for the first release"
            )
        }
        let source = address("\(dists)/InRelease")
        let (text, signature) = try RepositoryVerifier.clearsignedParts(
            String(decoding: inRelease, as: UTF8.self), source: source)
        try RepositoryVerifier.check(
            signature, over: Array(RepositoryVerifier.canonical(text).utf8), keys: keys, source: source)
        let suiteFolder = root.appendingPathComponent("dists/\(suite)")
        try FileSystem.createDirectory(suiteFolder)
        try AtomicFile.write(text, to: suiteFolder.appendingPathComponent("Release"))
        var indexes = 0
        var seen = Set<String>()
        for (path, size, sha256) in Self.releaseIndexes(text) {
            let parts = path.split(separator: "/")
            guard parts.count == 3, parts[0] == "main", parts[1].hasPrefix("binary-"), parts[2] == "Packages" else {
                continue
            }
            guard ConfinedPath.isPlainRelative(path) else {
                throw RepositoryError.mismatch(path: source, reason: "names `\(path)` outside the suite")
            }
            let index = suiteFolder.appendingPathComponent(path)
            try await download(
                "\(dists)/\(path)", to: index, size: size, sha256: sha256, limit: Limits.index, listedIn: source)
            indexes += 1
            let indexSource = address("\(dists)/\(path)")
            guard let data = FileSystem.contents(of: index) else {
                throw RepositoryError.badInput(path: index.path, reason: "cannot be read back")
            }
            for stanza in RepositoryText.stanzas(String(decoding: data, as: UTF8.self)) {
                guard let filename = RepositoryText.field("Filename", in: stanza),
                    let sha256 = RepositoryText.field("SHA256", in: stanza),
                    let size = RepositoryText.field("Size", in: stanza).flatMap(Int64.init),
                    ConfinedPath.isPlainRelative(filename), filename.hasPrefix("pool/")
                else {
                    throw RepositoryError.mismatch(
                        path: indexSource,
                        reason: "a stanza lacks Filename, Size or SHA256, or names a file outside pool/")
                }
                guard seen.insert(filename).inserted else { continue }
                guard seen.count <= Limits.packages else {
                    throw RepositoryError.mismatch(
                        path: indexSource,
                        reason: "lists more than \(Limits.packages) packages, the most relctl extends in one repository"
                    )
                }
                try await download(
                    "\(RepositoryBuilder.aptFolder)/\(filename)", to: root.appendingPathComponent(filename),
                    size: size, sha256: sha256, limit: Limits.package, listedIn: indexSource)
            }
        }
        guard indexes > 0 else {
            throw RepositoryError.mismatch(path: source, reason: "lists no main/binary-ARCH/Packages index")
        }
    }

    /// `(path, size, sha256)` of the Release text's SHA256 section.
    package static func releaseIndexes(_ text: String) -> [(String, Int64, String)] {
        var inSection = false
        var found: [(String, Int64, String)] = []
        for line in text.split(separator: "\n") {
            if !line.hasPrefix(" ") {
                inSection = line.hasPrefix("SHA256:")
                continue
            }
            let parts = line.split(separator: " ")
            guard inSection, parts.count == 3, let size = Int64(parts[1]) else { continue }
            found.append((String(parts[2]), size, String(parts[0])))
        }
        return found
    }

    // MARK: DNF

    private func fetchDnf(into root: URL) async throws {
        let repodata = "\(RepositoryBuilder.dnfFolder)/repodata"
        let source = address("\(repodata)/repomd.xml")
        guard let repomd = try await document("\(repodata)/repomd.xml") else {
            throw RepositoryError.badInput(
                path: source,
                reason:
                    "`[repository] previous` has no dnf repository here (\(absent)); name the root that holds apt/ and dnf/, or leave `previous` out for the first release"
            )
        }
        guard let signature = try await document("\(repodata)/repomd.xml.asc") else {
            throw RepositoryError.mismatch(
                path: address("\(repodata)/repomd.xml.asc"),
                reason: "missing (\(absent)): the previous repository's repomd.xml is not signed")
        }
        try RepositoryVerifier.check(
            String(decoding: signature, as: UTF8.self), over: [UInt8](repomd), keys: keys,
            source: address("\(repodata)/repomd.xml.asc"))
        try FileSystem.createDirectory(root.appendingPathComponent("repodata"))
        try FileSystem.createDirectory(root.appendingPathComponent("Packages"))
        try AtomicFile.write(repomd, to: root.appendingPathComponent("repodata/repomd.xml"))
        var primary: (file: URL, openSize: Int64, openSHA256: String?, source: String)?
        let text = String(decoding: repomd, as: UTF8.self)
        for block in text.components(separatedBy: "<data ").dropFirst() {
            guard let type = Self.between(block, "type=\"", "\""),
                let checksum = Self.between(block, "<checksum type=\"sha256\">", "</checksum>"),
                let location = Self.between(block, "<location href=\"", "\"").flatMap(Self.xmlText),
                let size = Self.between(block, "<size>", "</size>").flatMap(Int64.init),
                ConfinedPath.isPlainRelative(location), location.hasPrefix("repodata/")
            else {
                throw RepositoryError.mismatch(
                    path: source, reason: "a <data> entry lacks a sha256 checksum, location or size inside repodata/")
            }
            let file = root.appendingPathComponent(location)
            try await download(
                "\(RepositoryBuilder.dnfFolder)/\(location)", to: file, size: size, sha256: checksum,
                limit: Limits.index, listedIn: source)
            if type == "primary" {
                guard let openSize = Self.between(block, "<open-size>", "</open-size>").flatMap(Int64.init) else {
                    throw RepositoryError.mismatch(path: source, reason: "the primary entry lacks its open-size")
                }
                primary = (
                    file, openSize, Self.between(block, "<open-checksum type=\"sha256\">", "</open-checksum>"),
                    address("\(RepositoryBuilder.dnfFolder)/\(location)")
                )
            }
        }
        guard let primary else {
            throw RepositoryError.mismatch(path: source, reason: "names no primary index")
        }
        let document = try Self.gunzip(
            primary.file, size: primary.openSize, sha256: primary.openSHA256, source: primary.source)
        var count = 0
        for block in String(decoding: document, as: UTF8.self).components(separatedBy: "<package ").dropFirst() {
            guard
                let checksum = Self.between(block, "<checksum type=\"sha256\"", "</checksum>")?
                    .split(separator: ">", maxSplits: 1).last.map(String.init),
                let location = Self.between(block, "<location href=\"", "\"").flatMap(Self.xmlText),
                let size = Self.between(block, "<size package=\"", "\"").flatMap(Int64.init),
                location.hasPrefix("Packages/"), ConfinedPath.isPlainRelative(location),
                location.split(separator: "/").count == 2, location.hasSuffix(".rpm")
            else {
                throw RepositoryError.mismatch(
                    path: primary.source,
                    reason: "a package lacks its sha256 checksum, size or a location of the form Packages/NAME.rpm")
            }
            count += 1
            guard count <= Limits.packages else {
                throw RepositoryError.mismatch(
                    path: primary.source,
                    reason: "lists more than \(Limits.packages) packages, the most relctl extends in one repository")
            }
            try await download(
                "\(RepositoryBuilder.dnfFolder)/\(location)", to: root.appendingPathComponent(location), size: size,
                sha256: checksum, limit: Limits.package, listedIn: primary.source)
        }
    }

    /// A gzip member whose content is `size` bytes (as repomd.xml's open-size says), inflated
    /// whole into a buffer of exactly that size: more content does not fit and is refused.
    package static func gunzip(_ file: URL, size: Int64, sha256: String?, source: String) throws -> Data {
        guard size >= 0, size <= Limits.index else {
            throw RepositoryError.mismatch(
                path: source,
                reason:
                    "declares \(size) bytes, more than the \(ByteCount.format(Limits.index)) relctl reads of an index")
        }
        guard let compressed = FileSystem.contents(of: file), let decompressor = libdeflate_alloc_decompressor() else {
            throw RepositoryError.badInput(path: file.path, reason: "cannot be read back")
        }
        defer { libdeflate_free_decompressor(decompressor) }
        var output = Data(count: Int(size))
        var written = 0
        let result = compressed.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                libdeflate_gzip_decompress(
                    decompressor, input.baseAddress, compressed.count, out.baseAddress, Int(size), &written)
            }
        }
        guard result == LIBDEFLATE_SUCCESS, written == Int(size),
            sha256.map({ $0.lowercased() == FileHasher.hex(SHA256.hash(data: output)) }) ?? true
        else {
            throw RepositoryError.mismatch(
                path: source, reason: "does not inflate to the open-size and open-checksum repomd.xml lists")
        }
        return output
    }

    /// Character data of an XML attribute with the five predefined entities; nil for any other reference.
    package static func xmlText(_ text: String) -> String? {
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";") else { return nil }
            switch rest[rest.index(after: amp)..<semicolon] {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default: return nil
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return out + rest
    }

    private static func between(_ text: String, _ start: String, _ end: String) -> String? {
        guard let from = text.range(of: start), let to = text.range(of: end, range: from.upperBound..<text.endIndex)
        else { return nil }
        return String(text[from.upperBound..<to.lowerBound])
    }

    // MARK: HTTP

    private func url(_ path: String) -> URL {
        path.split(separator: "/").reduce(base) { $0.appendingPathComponent(String($1)) }
    }

    /// `path` as a message names it: its URL, or its path in the folder.
    private func address(_ path: String) -> String {
        if case .folder = source { return url(path).path }
        return url(path).absoluteString
    }

    /// How a file that is not there is described.
    private var absent: String {
        if case .folder = source { return "not in the folder" }
        return "HTTP 404"
    }

    /// `path` in the previous folder, under the read rule.
    private func local(_ path: String, in folder: URL) throws -> ProjectFile {
        try ProjectFile.open(path, in: folder, what: "[repository] previous", shown: address(path))
    }

    /// A small signed document in memory, nil on 404 (or when the folder does not hold it).
    private func document(_ path: String) async throws -> Data? {
        guard case .http = source else {
            guard case .folder(let folder) = source else { return nil }
            let file = try local(path, in: folder)
            guard file.exists else { return nil }
            guard file.isRegularFile else {
                throw RepositoryError.mismatch(path: file.shown, reason: "is not a regular file")
            }
            switch file.data(limit: Int(Limits.signedIndex)) {
            case .whole(let data)?: return data
            case .tooLarge?:
                throw RepositoryError.mismatch(
                    path: file.shown,
                    reason:
                        "holds more than \(ByteCount.format(Limits.signedIndex)), the most relctl reads of a signed index"
                )
            case nil: throw RepositoryError.badInput(path: file.shown, reason: "cannot be read")
            }
        }
        var request = HTTPRequest(method: "GET", url: url(path), timeout: 120)
        request.responseLimit = Limits.signedIndex
        let response = try await send(request, listedIn: nil)
        if response.status == 404 { return nil }
        guard response.status == 200 else {
            throw RepositoryError.mismatch(
                path: request.url.absoluteString,
                reason: "the server answers HTTP \(response.status); the previous repository cannot be read")
        }
        return response.body
    }

    /// `path` streamed into `file`, cut off past `size`, then checked against `size` and `sha256`.
    private func download(
        _ path: String, to file: URL, size: Int64, sha256: String, limit: Int64, listedIn: String
    ) async throws {
        let address = address(path)
        guard size >= 0, size <= limit else {
            throw RepositoryError.mismatch(
                path: address,
                reason:
                    "\(listedIn) gives it \(size) bytes, more than the \(ByteCount.format(limit)) relctl reads of one such file"
            )
        }
        try FileSystem.createDirectory(file.deletingLastPathComponent())
        if case .folder(let folder) = source {
            let local = try local(path, in: folder)
            guard local.isRegularFile else {
                throw RepositoryError.mismatch(
                    path: address,
                    reason:
                        "is missing (or not a regular file), though \(listedIn) lists it; the previous repository is incomplete: publish it whole again"
                )
            }
            guard local.size == size else {
                throw RepositoryError.mismatch(
                    path: address,
                    reason: "its size differs from what \(listedIn) lists; the file was changed after it was signed")
            }
            if FileSystem.kind(of: file) != nil { try FileSystem.remove(file) }
            try local.copy(to: file)
        } else {
            try await fetch(path, to: file, size: size, address: address, listedIn: listedIn)
        }
        guard FileSystem.size(of: file) == size, try FileHasher.sha256(of: file) == sha256.lowercased() else {
            throw RepositoryError.mismatch(
                path: address,
                reason: "its size or SHA-256 differs from what \(listedIn) lists; the published file was changed")
        }
    }

    /// `path` streamed from the server into `file`, cut off past `size`.
    private func fetch(_ path: String, to file: URL, size: Int64, address: String, listedIn: String) async throws {
        var request = HTTPRequest(method: "GET", url: url(path), timeout: 120)
        request.responseFile = file
        request.responseLimit = size
        let response = try await send(request, listedIn: listedIn)
        guard response.status == 200 else {
            try? FileSystem.remove(file)
            throw RepositoryError.mismatch(
                path: address,
                reason:
                    "the server answers HTTP \(response.status), though \(listedIn) lists it; the previous repository is incomplete: publish it whole again"
            )
        }
    }

    private func send(_ request: HTTPRequest, listedIn: String?) async throws -> HTTPResponse {
        guard case .http(let http) = source else {
            throw RepositoryError.badInput(path: request.url.path, reason: "is a folder, not a server")
        }
        do { return try await http.send(request) } catch NetworkError.responseTooLarge(_, let limit, _) {
            throw RepositoryError.mismatch(
                path: request.url.absoluteString,
                reason:
                    "the server sends more than \(ByteCount.format(limit)), \(listedIn.map { "the size \($0) lists" } ?? "the most relctl reads of a signed index"); stopped reading"
            )
        }
    }
}
