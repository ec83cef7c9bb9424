import Crypto
import CryptoExtras
import Foundation
import RelctlBasics

/// `relctl verify --repository-key KEY`: the APT and DNF repositories in a dist folder checked
/// as their clients would: every signature (InRelease, Release.gpg, repomd.xml.asc) made by the
/// given OpenPGP key, every index the signed files name present with its size and SHA-256, every
/// package the APT indexes list present with its SHA-256.
package enum RepositoryVerifier {
    package struct Check: Sendable, Encodable, Equatable {
        package var repository: String
        package var files: Int
    }

    /// Verifies `apt/` and `dnf/` under `dist` (those present); at least one must be.
    package static func verify(dist: URL, keyFile: URL) throws -> [Check] {
        guard let data = FileSystem.contents(of: keyFile), data.count < 1 << 20 else {
            throw RepositoryError.badInput(path: keyFile.path, reason: "the repository key cannot be read")
        }
        let keys = try publicKeys(data, source: keyFile.path)
        var checks: [Check] = []
        let apt = dist.appendingPathComponent(RepositoryBuilder.aptFolder)
        if FileSystem.isDirectory(apt) { checks.append(try verifyApt(apt, keys: keys)) }
        let dnf = dist.appendingPathComponent(RepositoryBuilder.dnfFolder)
        if FileSystem.isDirectory(dnf) { checks.append(try verifyDnf(dnf, keys: keys)) }
        guard !checks.isEmpty else {
            throw RepositoryError.badInput(
                path: dist.path,
                reason: "holds no apt/ or dnf/ repository to verify (`relctl repository --tag TAG` writes them)")
        }
        return checks
    }

    // MARK: APT

    private static func verifyApt(_ root: URL, keys: [[UInt8]: PublicKey]) throws -> Check {
        let dists = root.appendingPathComponent("dists")
        var files = 0
        for suite in try FileSystem.names(in: dists).sorted() {
            let folder = dists.appendingPathComponent(suite)
            let releaseURL = folder.appendingPathComponent("Release")
            let inReleaseURL = folder.appendingPathComponent("InRelease")
            guard let inRelease = FileSystem.contents(of: inReleaseURL).map({ String(decoding: $0, as: UTF8.self) })
            else {
                throw RepositoryError.mismatch(
                    path: inReleaseURL.path, reason: "missing: apt reads the suite from InRelease")
            }
            let (text, signature) = try clearsignedParts(inRelease, source: inReleaseURL.path)
            try check(signature, over: Array(canonical(text).utf8), keys: keys, source: inReleaseURL.path)
            if let release = FileSystem.contents(of: releaseURL) {
                let detachedURL = folder.appendingPathComponent("Release.gpg")
                guard let detached = FileSystem.contents(of: detachedURL) else {
                    throw RepositoryError.mismatch(path: detachedURL.path, reason: "missing beside Release")
                }
                try check(
                    String(decoding: detached, as: UTF8.self), over: [UInt8](release), keys: keys,
                    source: detachedURL.path)
                guard String(decoding: release, as: UTF8.self) == text else {
                    throw RepositoryError.mismatch(
                        path: releaseURL.path, reason: "differs from the text InRelease signs")
                }
            }
            var inSection = false
            for line in text.split(separator: "\n") {
                if !line.hasPrefix(" ") {
                    inSection = line.hasPrefix("SHA256:")
                    continue
                }
                guard inSection else { continue }
                let parts = line.split(separator: " ")
                guard parts.count == 3, let size = Int64(parts[1]) else { continue }
                let path = String(parts[2])
                guard !path.hasPrefix("/"), !path.split(separator: "/").contains("..") else {
                    throw RepositoryError.mismatch(path: releaseURL.path, reason: "names `\(path)` outside the suite")
                }
                let index = folder.appendingPathComponent(path)
                try checkFile(index, size: size, sha256: String(parts[0]), listedIn: inReleaseURL.path)
                files += 1
                if path.hasSuffix("/Packages"), let data = FileSystem.contents(of: index) {
                    for stanza in RepositoryText.stanzas(String(decoding: data, as: UTF8.self)) {
                        guard let filename = RepositoryText.field("Filename", in: stanza),
                            let sha256 = RepositoryText.field("SHA256", in: stanza),
                            let size = RepositoryText.field("Size", in: stanza).flatMap(Int64.init),
                            !filename.hasPrefix("/"), !filename.split(separator: "/").contains("..")
                        else {
                            throw RepositoryError.mismatch(
                                path: index.path, reason: "a stanza lacks Filename, Size or SHA256")
                        }
                        try checkFile(
                            root.appendingPathComponent(filename), size: size, sha256: sha256, listedIn: index.path)
                        files += 1
                    }
                }
            }
        }
        return Check(repository: root.path, files: files)
    }

    // MARK: DNF

    private static func verifyDnf(_ root: URL, keys: [[UInt8]: PublicKey]) throws -> Check {
        let repomdURL = root.appendingPathComponent("repodata/repomd.xml")
        guard let repomd = FileSystem.contents(of: repomdURL) else {
            throw RepositoryError.mismatch(path: repomdURL.path, reason: "missing")
        }
        let signatureURL = root.appendingPathComponent("repodata/repomd.xml.asc")
        guard let signature = FileSystem.contents(of: signatureURL) else {
            throw RepositoryError.mismatch(
                path: signatureURL.path, reason: "missing: dnf with repo_gpgcheck=1 refuses the repository")
        }
        try check(
            String(decoding: signature, as: UTF8.self), over: [UInt8](repomd), keys: keys, source: signatureURL.path)
        var files = 0
        let text = String(decoding: repomd, as: UTF8.self)
        for block in text.components(separatedBy: "<data ").dropFirst() {
            guard let checksum = between(block, "<checksum type=\"sha256\">", "</checksum>"),
                let location = between(block, "<location href=\"", "\""),
                let size = between(block, "<size>", "</size>").flatMap(Int64.init),
                !location.hasPrefix("/"), !location.split(separator: "/").contains("..")
            else {
                throw RepositoryError.mismatch(
                    path: repomdURL.path, reason: "a <data> entry lacks a sha256 checksum, location or size")
            }
            try checkFile(root.appendingPathComponent(location), size: size, sha256: checksum, listedIn: repomdURL.path)
            files += 1
        }
        return Check(repository: root.path, files: files)
    }

    private static func between(_ text: String, _ start: String, _ end: String) -> String? {
        guard let from = text.range(of: start), let to = text.range(of: end, range: from.upperBound..<text.endIndex)
        else { return nil }
        return String(text[from.upperBound..<to.lowerBound])
    }

    private static func checkFile(_ url: URL, size: Int64, sha256: String, listedIn: String) throws {
        guard FileSystem.kind(of: url) == .file else {
            throw RepositoryError.mismatch(path: url.path, reason: "missing, though \(listedIn) lists it")
        }
        guard FileSystem.size(of: url) == size, try FileHasher.sha256(of: url) == sha256.lowercased() else {
            throw RepositoryError.mismatch(
                path: url.path, reason: "its size or SHA-256 differs from what \(listedIn) lists")
        }
    }

    // MARK: OpenPGP

    /// A key that can check a repository signature.
    package enum PublicKey {
        case ed25519(Curve25519.Signing.PublicKey)
        case rsa(_RSA.Signing.PublicKey)

        /// Whether a signature naming public-key `algorithm` can be this key's.
        package func signs(_ algorithm: UInt8) -> Bool {
            switch self {
            case .ed25519: algorithm == OpenPGPSigningKey.eddsa
            case .rsa: OpenPGPSecretKey.rsaAlgorithms.contains(algorithm)
            }
        }
    }

    /// The Ed25519 and RSA keys of a public keyring (armored or binary), by their 8-byte key ID.
    package static func publicKeys(_ data: Data, source: String) throws -> [[UInt8]: PublicKey] {
        let text = String(decoding: data, as: UTF8.self)
        let bytes = text.contains("-----BEGIN PGP") ? try OpenPGPSecretKey.dearmor(text, source: source) : [UInt8](data)
        var keys: [[UInt8]: PublicKey] = [:]
        for packet in try OpenPGPPacketReader.packets(bytes, source: source) where packet.tag == 6 || packet.tag == 14 {
            let body = packet.body
            guard body.count > 6, body[0] == 4, let key = try publicKey(body, source: source) else { continue }
            let fingerprint = Array(
                Insecure.SHA1.hash(data: [0x99, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body))
            keys[Array(fingerprint.suffix(8))] = key
        }
        guard !keys.isEmpty else {
            throw RepositoryError.badInput(
                path: source,
                reason:
                    "holds no Ed25519 or RSA (2048 bits or more) OpenPGP public key (`gpg --export KEYID` writes one)"
            )
        }
        return keys
    }

    /// The key of a v4 public-key packet body, or nil for an algorithm or size relctl does not check.
    private static func publicKey(_ body: [UInt8], source: String) throws -> PublicKey? {
        var cursor = ByteCursor(body, offset: 6, source: source)
        if body[5] == OpenPGPSigningKey.eddsa {
            guard try cursor.take(Int(try cursor.byte())) == OpenPGPSigningKey.ed25519OID else { return nil }
            let point = try cursor.mpi()
            guard point.count == 33, point[0] == 0x40 else { return nil }
            return (try? Curve25519.Signing.PublicKey(rawRepresentation: point.dropFirst())).map { .ed25519($0) }
        }
        guard OpenPGPSecretKey.rsaAlgorithms.contains(body[5]) else { return nil }
        let n = try cursor.mpi()
        let e = try cursor.mpi()
        return (try? _RSA.Signing.PublicKey(n: n, e: e)).map { .rsa($0) }
    }

    /// The signed text (dash-escaping undone) and the armored signature of a cleartext message.
    package static func clearsignedParts(_ message: String, source: String) throws -> (String, String) {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.first == "-----BEGIN PGP SIGNED MESSAGE-----",
            let blank = lines.firstIndex(of: ""),
            let end = lines.firstIndex(of: "-----BEGIN PGP SIGNATURE-----"), end > blank
        else {
            throw RepositoryError.mismatch(path: source, reason: "not a cleartext-signed message")
        }
        let body = lines[(blank + 1)..<end].map { $0.hasPrefix("- ") ? String($0.dropFirst(2)) : $0 }
        return (body.joined(separator: "\n") + "\n", lines[end...].joined(separator: "\n"))
    }

    package static func canonical(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines.map { line in
            var trimmed = Substring(line)
            while let last = trimmed.last, last == " " || last == "\t" || last == "\r" { trimmed = trimmed.dropLast() }
            return String(trimmed)
        }
        .joined(separator: "\r\n")
    }

    /// Checks one armored v4 EdDSA or RSA signature (SHA-256) over `data` against the keys.
    package static func check(_ armored: String, over data: [UInt8], keys: [[UInt8]: PublicKey], source: String) throws
    {
        let bytes: [UInt8]
        do { bytes = try OpenPGPSecretKey.dearmor(armored, source: source) } catch {
            throw RepositoryError.mismatch(path: source, reason: "the signature is not armored OpenPGP")
        }
        let packets = try OpenPGPPacketReader.packets(bytes, source: source).filter { $0.tag == 2 }
        guard !packets.isEmpty else {
            throw RepositoryError.mismatch(path: source, reason: "holds no signature packet")
        }
        for packet in packets {
            let body = packet.body
            guard body.count > 6, body[0] == 4, body[3] == OpenPGPSigningKey.sha256 else { continue }
            var cursor = ByteCursor(body, offset: 4, source: source)
            let hashedLength = Int(try cursor.byte()) << 8 | Int(try cursor.byte())
            let hashedSubpackets = try cursor.take(hashedLength)
            let hashed = Array(body[0..<cursor.offset])
            let unhashedLength = Int(try cursor.byte()) << 8 | Int(try cursor.byte())
            let unhashed = try cursor.take(unhashedLength)
            _ = try cursor.take(2)
            let issuers = issuerIDs(hashedSubpackets) + issuerIDs(unhashed)
            guard let key = issuers.lazy.compactMap({ keys[$0] }).first, key.signs(body[2]) else { continue }
            var hash = SHA256()
            hash.update(data: data)
            hash.update(data: hashed)
            hash.update(data: [4, 0xFF] + OpenPGPPacket.bigEndian(UInt32(hashed.count)))
            if try isValid(key, signature: &cursor, digest: hash.finalize()) { return }
            throw RepositoryError.mismatch(
                path: source, reason: "BAD signature: the signed file was changed after signing")
        }
        throw RepositoryError.mismatch(path: source, reason: "not signed by the given repository key")
    }

    /// Whether the signature's MPIs (at `cursor`) are `key`'s over `digest`: Ed25519's r and s,
    /// or RSA's one value, PKCS#1 v1.5, left-padded to the modulus's length as BoringSSL wants.
    private static func isValid(
        _ key: PublicKey, signature cursor: inout ByteCursor, digest: SHA256Digest
    ) throws
        -> Bool
    {
        switch key {
        case .ed25519(let key):
            let r = try cursor.mpi()
            let s = try cursor.mpi()
            guard r.count <= 32, s.count <= 32 else { return false }
            let signature =
                [UInt8](repeating: 0, count: 32 - r.count) + r + [UInt8](repeating: 0, count: 32 - s.count) + s
            return key.isValidSignature(signature, for: Array(digest))
        case .rsa(let key):
            let value = try cursor.mpi()
            let length = (key.keySizeInBits + 7) / 8
            guard value.count <= length else { return false }
            let signature = _RSA.Signing.RSASignature(
                rawRepresentation: [UInt8](repeating: 0, count: length - value.count) + value)
            return key.isValidSignature(signature, for: digest, padding: .insecurePKCS1v1_5)
        }
    }

    /// Key IDs named by issuer (16) and issuer fingerprint (33) subpackets.
    private static func issuerIDs(_ area: [UInt8]) -> [[UInt8]] {
        var ids: [[UInt8]] = []
        var at = 0
        while at < area.count {
            var length = Int(area[at])
            at += 1
            if length >= 192, length < 255, at < area.count {
                length = ((length - 192) << 8) + Int(area[at]) + 192
                at += 1
            } else if length == 255, at + 4 <= area.count {
                length = Int(area[at]) << 24 | Int(area[at + 1]) << 16 | Int(area[at + 2]) << 8 | Int(area[at + 3])
                at += 4
            }
            guard length >= 1, at + length <= area.count else { break }
            let type = area[at] & 0x7F
            let data = Array(area[(at + 1)..<(at + length)])
            if type == 16, data.count == 8 { ids.append(data) }
            if type == 33, data.count == 21 { ids.append(Array(data.suffix(8))) }
            at += length
        }
        return ids
    }
}
