import Foundation
import RelctlBasics
import RelctlModel

/// What a file a release made is. Each reader picks its files by kind (`manifest.json` lists the
/// archives, `SHA256SUMS` everything but itself and its signatures); a new channel or stage whose
/// files go up with the release adds a case here, not a type of its own.
public enum ArtifactKind: String, Sendable, CaseIterable {
    case archive, sbom, deb, rpm, msi, installer, checksums, signature, provenance, manifest, chart
    /// An `[npm]` package tarball (`acme-velostream-linux-x64-1.0.0.tgz`).
    case npm
    /// A Python wheel of `[pypi]` (`NAME-VERSION-py3-none-PLATFORM.whl`).
    case wheel

    /// The kind of a file in dist/ known only by its name (a listed file, a companion of the list).
    package static func of(fileName name: String) -> ArtifactKind {
        if name == ReleaseManifest.fileName { return .manifest }
        if ChecksumAlgorithm.allCases.contains(where: { name == $0.sumsFileName || name.hasSuffix($0.fileExtension) }) {
            return .checksums
        }
        if name.hasSuffix(".sig") || name.hasSuffix(".minisig") { return .signature }
        if name.hasSuffix(".intoto.jsonl") { return .provenance }
        if name.hasSuffix(SBOMBuilder.fileExtension) { return .sbom }
        if name.hasSuffix(".deb") { return .deb }
        if name.hasSuffix(".rpm") { return .rpm }
        if name.hasSuffix(".msi") { return .msi }
        if name.hasSuffix(".whl") { return .wheel }
        if name.hasSuffix(".sh") || name.hasSuffix(".ps1") { return .installer }
        return .archive
    }
}

/// The command or stage that wrote a file (`relctl package` and the release's package stage are
/// both `package`): what `relctl release` reports a file came from.
public enum ArtifactProducer: String, Sendable, CaseIterable {
    case package, linuxPackage = "linux-package", msi, sbom, installer, checksum, sign, provenance, chart, channel
    /// The release's npm stage (`[npm]`).
    case npm
    /// The release's `python-wheel` stage (`[pypi]`).
    case pythonWheel = "python-wheel"
}

/// One file a release made: the one record `manifest.json`, the checksum lists, SBOMs, publish,
/// the channels and the repositories read (issue 41). `manifest.json` stores five of its facts
/// (name, target, format, size, sha256), so decoding and encoding an `Artifact` is exactly a
/// manifest entry; where the file lies, its SHA-512 and who wrote it are known only to the run
/// that wrote or found it.
public struct Artifact: Sendable, Equatable, Codable {
    /// The file name in dist/ (`velostream-v1.0.0-x86_64-unknown-linux-musl.tar.gz`).
    public package(set) var name: String
    /// The target triple; empty when the file belongs to no target (an installer, a list) or its
    /// name fits none (`manifest.json` spells "none" as `""`, so this does too).
    public package(set) var target: String
    /// The archive format id (`tar.gz`, `zip`), `deb`/`rpm`, or for other kinds what the file is.
    public package(set) var format: String
    public package(set) var size: Int64
    /// Inline: `checksum` over 100,000 archives holds 100,000 artifacts (issue 31). Declared
    /// before the one-byte kind and producer, which then sit in its padding (104 bytes, not 112).
    private var digest: StoredHex
    public package(set) var kind: ArtifactKind
    /// Nil for a file known from a list or a manifest: those do not record who wrote it.
    public package(set) var producedBy: ArtifactProducer?
    /// The path and SHA-512 together behind one optional reference: only a file written or found
    /// in this run has them, and the 100,000 entries of a scanned folder's manifest then carry
    /// 8 bytes of nil instead of two empty optional strings (issue 31's memory budget).
    private var located: Located?

    private final class Located: Sendable {
        let path: String?
        let sha512: String?
        init(path: String?, sha512: String?) {
            self.path = path
            self.sha512 = sha512
        }
    }

    /// Lowercase hex.
    public package(set) var sha256: String {
        get { digest.text }
        set { digest = StoredHex(newValue) }
    }

    /// Lowercase hex; only when `[checksum] algorithm = "sha512"` (archives) or always (packages,
    /// SBOMs), hashed from the same write stream as the SHA-256.
    public package(set) var sha512: String? {
        get { located?.sha512 }
        set { located = Self.located(path: path, sha512: newValue) }
    }

    /// Absolute path of the file; nil for an entry read back from `manifest.json`.
    public package(set) var path: String? {
        get { located?.path }
        set { located = Self.located(path: newValue, sha512: sha512) }
    }

    package init(
        name: String, kind: ArtifactKind = .archive, target: String = "", format: String, size: Int64,
        sha256: String, sha512: String? = nil, path: String? = nil, producedBy: ArtifactProducer? = nil
    ) {
        self.init(
            name: name, kind: kind, target: target, format: format, size: size, digest: StoredHex(sha256),
            sha512: sha512, path: path, producedBy: producedBy)
    }

    package init(
        name: String, kind: ArtifactKind = .archive, target: String = "", format: String, size: Int64,
        sha256: SHA256Bytes, sha512: String? = nil, path: String? = nil, producedBy: ArtifactProducer? = nil
    ) {
        self.init(
            name: name, kind: kind, target: target, format: format, size: size, digest: StoredHex(sha256),
            sha512: sha512, path: path, producedBy: producedBy)
    }

    private init(
        name: String, kind: ArtifactKind, target: String, format: String, size: Int64, digest: StoredHex,
        sha512: String?, path: String?, producedBy: ArtifactProducer?
    ) {
        self.name = name
        self.kind = kind
        self.target = target
        self.format = format
        self.size = size
        self.digest = digest
        self.producedBy = producedBy
        self.located = Self.located(path: path, sha512: sha512)
    }

    private static func located(path: String?, sha512: String?) -> Located? {
        path == nil && sha512 == nil ? nil : Located(path: path, sha512: sha512)
    }

    public static func == (lhs: Artifact, rhs: Artifact) -> Bool {
        lhs.name == rhs.name && lhs.kind == rhs.kind && lhs.target == rhs.target && lhs.format == rhs.format
            && lhs.size == rhs.size && lhs.digest == rhs.digest && lhs.producedBy == rhs.producedBy
            && lhs.path == rhs.path && lhs.sha512 == rhs.sha512
    }

    /// The digest `algorithm` names; nil when this file was not hashed with it.
    package func digest(_ algorithm: ChecksumAlgorithm) -> String? { algorithm == .sha256 ? sha256 : sha512 }

    /// The file's `SHA256SUMS` line, from the digest as stored (no hex text on the way).
    package var sha256Entry: ChecksumFile.Entry {
        digest.sha256.map { ChecksumFile.Entry(name: name, sha256: $0) }
            ?? ChecksumFile.Entry(name: name, digest: digest.text, algorithm: .sha256)
    }

    /// The file's line in the `<ALG>SUMS` list; nil when it was not hashed with `algorithm`.
    package func checksumEntry(_ algorithm: ChecksumAlgorithm) -> ChecksumFile.Entry? {
        if algorithm == .sha256 { return sha256Entry }
        return sha512.map { ChecksumFile.Entry(name: name, digest: $0, algorithm: algorithm) }
    }

    /// The file as `manifest.json` records it: the five stored facts, nothing this run alone knows,
    /// so a manifest built in memory equals the one read back.
    package var manifestEntry: Artifact {
        Artifact(
            name: name, kind: .archive, target: target, format: format, size: size, digest: digest, sha512: nil,
            path: nil, producedBy: nil)
    }

    /// The target's triple, parsed: OS and architecture decide which package manager gets an archive.
    package var triple: TargetTriple { TargetTriple(target) }

    // MARK: manifest.json's entry: exactly these five keys (contract schema 1)

    private enum CodingKeys: String, CodingKey {
        case name, target, format, size, sha256
    }

    /// A manifest lists archives: what it holds decodes as one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name),
            target: try container.decode(String.self, forKey: .target),
            format: try container.decode(String.self, forKey: .format),
            size: try container.decode(Int64.self, forKey: .size),
            sha256: try container.decode(String.self, forKey: .sha256))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(target, forKey: .target)
        try container.encode(format, forKey: .format)
        try container.encode(size, forKey: .size)
        try container.encode(sha256, forKey: .sha256)
    }

    // MARK: the file as a command reports it

    /// This file in a command's `--json` output: `relctl linux-package --json` gives each package
    /// so (and `relctl package --json` each archive, with its packaging facts beside).
    package var fileReport: FileReport { FileReport(artifact: self) }

    /// An `Artifact` encoded as a file written (the manifest's five keys, its path, its SHA-512
    /// when there is one) rather than as a manifest entry: a view for JSON output, not a record
    /// of its own.
    package struct FileReport: Encodable, Sendable {
        package var artifact: Artifact

        private enum CodingKeys: String, CodingKey {
            case name, target, format, path, size, sha256, sha512
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(artifact.name, forKey: .name)
            try container.encode(artifact.target, forKey: .target)
            try container.encode(artifact.format, forKey: .format)
            try container.encode(artifact.path ?? "", forKey: .path)
            try container.encode(artifact.size, forKey: .size)
            try container.encode(artifact.sha256, forKey: .sha256)
            try container.encodeIfPresent(artifact.sha512, forKey: .sha512)
        }
    }
}
