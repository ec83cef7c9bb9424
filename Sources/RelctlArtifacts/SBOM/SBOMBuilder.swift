import Crypto
import Foundation
import RelctlBasics

/// Builds the CycloneDX SBOM of one archive: the project's own package is the subject
/// (`metadata.component`, with its package URL and the archive as its distribution), the archive
/// and each regular file in it `file` components with their SHA-256, and the lockfile packages
/// `library` components the package depends on. Nothing comes from the clock or randomness:
/// the serial number is a name-based UUID of project, tag and archive digest, the timestamp is
/// the archive's own time (`SOURCE_DATE_EPOCH` or the commit's).
package enum SBOMBuilder {
    /// `NAME.cdx.json`, `NAME` being the archive's stem (its top-level folder).
    package static let fileExtension = ".cdx.json"

    package struct Subject: Sendable {
        package var project: String
        package var tag: String
        package var version: String
        /// The archive's file name and SHA-256.
        package var archiveName: String
        package var archiveSHA256: String
        /// Seconds since 1970, as stored in the archive.
        package var time: Int
        package var files: [ArchivedFile]
        /// The project's own package; nil names it `pkg:generic/PROJECT@VERSION`.
        package var package: ProjectPackage?

        package init(
            project: String, tag: String, version: String, archiveName: String, archiveSHA256: String, time: Int,
            files: [ArchivedFile], package: ProjectPackage? = nil
        ) {
            self.package = package
            self.project = project
            self.tag = tag
            self.version = version
            self.archiveName = archiveName
            self.archiveSHA256 = archiveSHA256
            self.time = time
            self.files = files
        }
    }

    package static func document(for subject: Subject, dependencies: [SBOMDocument.Component]) -> SBOMDocument {
        let archiveReference = "archive:\(subject.archiveName)"
        let archive = SBOMDocument.Component(
            type: "file", bomRef: archiveReference, name: subject.archiveName, version: subject.version,
            hashes: [.init(alg: "SHA-256", content: subject.archiveSHA256)])
        let files = subject.files.sorted { bytewiseLess($0.path, $1.path) }.map { file in
            SBOMDocument.Component(
                type: "file", bomRef: "file:\(file.path)", name: file.path,
                hashes: [.init(alg: "SHA-256", content: file.sha256)])
        }
        let tool = SBOMDocument.Component(type: "application", name: "relctl", version: RelctlVersion.version)
        let package = subject.package ?? ProjectPackage.generic(project: subject.project, version: subject.version)
        let packageComponent = package.component(
            version: subject.version, archiveName: subject.archiveName, archiveSHA256: subject.archiveSHA256)
        return SBOMDocument(
            serialNumber: serialNumber(
                project: subject.project, tag: subject.tag, archiveSHA256: subject.archiveSHA256),
            metadata: .init(
                timestamp: timestamp(subject.time), tools: .init(components: [tool]), component: packageComponent),
            components: [archive] + files + dependencies,
            dependencies: [.init(ref: package.purl, dependsOn: dependencies.compactMap(\.bomRef))]
        )
    }

    /// Writes `DIR/NAME.cdx.json` atomically; returns it (kind `.sbom`) with the size and digests
    /// of what was written, so the checksum stage lists it without reading it back.
    /// The bytes are `JSONOutput.encode(document(…))`, streamed (`SBOMJSONStream`) and hashed on
    /// the way, so the document is never whole in memory.
    @discardableResult
    package static func write(
        _ subject: Subject, dependencies: [SBOMDocument.Component], stem: String, in directory: URL
    ) throws -> Artifact {
        try WorkProfile.shared.measure(.sbom) {
            try writeUnmeasured(subject, dependencies: dependencies, stem: stem, in: directory)
        }
    }

    private static func writeUnmeasured(
        _ subject: Subject, dependencies: [SBOMDocument.Component], stem: String, in directory: URL
    ) throws -> Artifact {
        let url = directory.appendingPathComponent(stem + fileExtension)
        let temporary = AtomicFile.temporaryURL(for: url)
        let descriptor = CleanupRegistry.shared.create(temporary)
        guard descriptor >= 0 else { throw AtomicFile.writeError(errno, url) }
        defer { CleanupRegistry.shared.unregister(temporary) }
        var open = true
        do {
            let sink = HashingFileSink(descriptor: descriptor, alsoSHA512: true)
            try SBOMJSONStream.write(subject, dependencies: dependencies) { bytes in
                guard sink.write(bytes) else {
                    if let code = sink.failureCode { throw AtomicFile.writeError(code, url) }
                    throw FileSystemError(path: url.path, action: "cannot write", reason: sink.failure)
                }
            }
            // The mode AtomicFile gives every file it writes, whatever the umask.
            FileSystem.setPermissions(0o644, ofOpenFile: descriptor)
            open = false
            if close(descriptor) != 0 { throw AtomicFile.writeError(errno, url) }
            try AtomicFile.commit(temporary, to: url)
            return Artifact(
                name: url.lastPathComponent, kind: .sbom, format: String(fileExtension.dropFirst()),
                size: sink.byteCount, sha256: sink.finalizeHex(), sha512: sink.finalizeSHA512Hex() ?? "",
                path: url.path, producedBy: .sbom)
        } catch {
            if open { close(descriptor) }
            FileSystem.removeFile(atPath: temporary.path)
            throw error
        }
    }

    /// An RFC 4122 version-5 UUID (SHA-1, URL namespace) of `relctl:PROJECT/TAG/SHA256`: the same
    /// release and archive always get the same serial number, a different archive another.
    package static func serialNumber(project: String, tag: String, archiveSHA256: String) -> String {
        let namespace: [UInt8] = [
            0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8,
        ]
        var bytes = Array(
            Insecure.SHA1.hash(data: Data(namespace + Array("relctl:\(project)/\(tag)/\(archiveSHA256)".utf8))).prefix(
                16))
        bytes[6] = (bytes[6] & 0x0f) | 0x50
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let parts = [
            hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4),
            hex.dropFirst(20),
        ]
        return "urn:uuid:" + parts.joined(separator: "-")
    }

    package static func timestamp(_ seconds: Int) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}

/// A lockfile the SBOM reads that cannot be parsed: bad input (exit 2) naming it.
package struct SBOMError: RelctlError {
    package var file: String
    package var reason: String

    package init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    package var exitCode: RelctlExitCode { .badInput }
    package var diagnostics: [Diagnostic] {
        [Diagnostic(file: file, "\(reason); fix the lockfile or set `[sbom] enabled = false`")]
    }
}
