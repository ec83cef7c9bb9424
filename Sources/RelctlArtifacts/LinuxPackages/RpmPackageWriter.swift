import Crypto
import Foundation
import RelctlBasics

/// A binary rpm in the v4 layout rpm(8) reads: the 96-byte lead, the signature header (header
/// SHA-256 and SHA-1, header+payload MD5 and sizes, and with a `signing-key` the header's
/// OpenPGP signature), the main header (metadata, file list with
/// modes, owners and SHA-256 digests, the payload's SHA-256) and the gzip-compressed cpio payload.
/// Build time and host are fixed (the release's time, `relctl`), so the bytes repeat.
package struct RpmPackageWriter: LinuxPackageFormat {
    package var id: String { "rpm" }

    package func fileName(_ spec: LinuxPackageSpec) -> String {
        "\(spec.name)-\(spec.version.rpm)-\(spec.release).\(spec.architecture.rpm).rpm"
    }

    /// Writes the .rpm to `url`: the cpio payload streamed from the files into a temporary beside
    /// it, compressed into another and hashed (the header holds the payload's digest, the
    /// signature header the header's and the sizes), then lead, signature, header and the payload
    /// copied in. Nothing of a file's contents is held whole; the temporaries go on every path out.
    package func write(_ spec: LinuxPackageSpec, to url: URL) throws -> WrittenPackage {
        // rpm owns only what it installs: the distribution's filesystem package owns /usr/bin.
        let files = spec.files.sorted { bytewiseLess($0.path, $1.path) }
        return try AtomicFile.write(
            to: url,
            throughDescriptor: { descriptor in
                let cpio = try PackageTemporary(beside: url, "cpio")
                defer { cpio.remove() }
                let cpioWriter = PackageFileWriter(descriptor: cpio.descriptor, package: url, crc: true)
                let contents = try Self.payload(files, mtime: spec.mtime, into: cpioWriter)
                try cpioWriter.flush()
                let cpioSize = cpioWriter.count
                // rpm's 32-bit size tags; larger packages need the 64-bit tags, which this writer does not write.
                guard cpioSize <= Int(UInt32.max) else {
                    throw LinuxPackageError.tooLarge(package: fileName(spec), size: cpioSize)
                }
                let payload = try PackageTemporary(beside: url, "cpio.gz")
                defer { payload.remove() }
                let payloadSize = try Gzip.compress(
                    file: cpio.descriptor, size: cpioSize, crc: cpioWriter.crc, into: payload.descriptor,
                    destination: url)
                cpio.remove()
                var payloadDigest = SHA256()
                try PackageFileWriter.digest(of: payload, into: &payloadDigest, package: url)
                let header = Self.mainHeader(
                    spec, files: files, contents: contents, payloadDigest: FileHasher.hex(payloadDigest.finalize())
                ).serialized()
                guard header.count + payloadSize <= Int(UInt32.max) else {
                    throw LinuxPackageError.tooLarge(package: fileName(spec), size: cpioSize)
                }

                var signature = RpmHeader(regionTag: 62)
                signature[269] = .string(FileHasher.hex(Insecure.SHA1.hash(data: header)))  // RPMSIGTAG_SHA1
                signature[273] = .string(FileHasher.hex(SHA256.hash(data: header)))  // RPMSIGTAG_SHA256
                signature[1000] = .int32([UInt32(header.count + payloadSize)])  // RPMSIGTAG_SIZE
                var md5 = Insecure.MD5()
                md5.update(data: header)
                try PackageFileWriter.digest(of: payload, into: &md5, package: url)
                signature[1004] = .binary(Data(md5.finalize()))  // RPMSIGTAG_MD5
                signature[1007] = .int32([UInt32(cpioSize)])  // RPMSIGTAG_PAYLOADSIZE
                if let signer = spec.signer {
                    // A header-only OpenPGP signature: the header holds the payload's SHA-256, so it
                    // covers the whole package. rpmsign files EdDSA (like DSA) under RPMSIGTAG_DSA.
                    signature[267] = .binary(
                        Data(signer.signature(over: Array(header), time: UInt32(clamping: spec.mtime))))
                }

                let output = PackageFileWriter(descriptor: descriptor, package: url, digests: true)
                try output.write(Self.lead(spec))
                try output.write(signature.serialized(padded: true))
                try output.write(header)
                try output.append(temporary: payload, size: payloadSize)
                try output.flush()
                let (sha256, sha512) = output.digests()
                return WrittenPackage(size: Int64(output.count), sha256: sha256, sha512: sha512)
            })
    }

    /// The lead: magic, version 3.0, binary, arch number, `name-version-release`, Linux, and
    /// signature type 5 (a header-style signature follows).
    package static func lead(_ spec: LinuxPackageSpec) -> Data {
        var lead = Data([0xED, 0xAB, 0xEE, 0xDB, 3, 0, 0, 0])
        let arch = spec.architecture.rpmLeadNumber
        lead.append(contentsOf: [UInt8(arch >> 8), UInt8(arch & 0xFF)])
        var name = Array("\(spec.name)-\(spec.version.rpm)-\(spec.release)".utf8.prefix(65))
        name += [UInt8](repeating: 0, count: 66 - name.count)
        lead.append(contentsOf: name)
        lead.append(contentsOf: [0, 1, 0, 5])
        lead.append(Data(count: 16))
        return lead
    }

    /// The cpio payload into `cpio`, each file's bytes streamed from where they are; returns each
    /// entry's size and SHA-256, in order.
    package static func payload(
        _ files: [PackagedFile], mtime: Int, into cpio: PackageFileWriter
    ) throws -> [FileContents] {
        let stream = CpioStream(into: cpio, mtime: mtime)
        var contents: [FileContents] = []
        for (index, file) in files.enumerated() {
            contents.append(try stream.add("." + file.path, file, inode: index + 1))
        }
        try stream.finish()
        return contents
    }

    /// - Parameter contents: each file's size and SHA-256, as `payload` wrote them.
    package static func mainHeader(
        _ spec: LinuxPackageSpec, files: [PackagedFile], contents: [FileContents], payloadDigest: String
    ) -> RpmHeader {
        let metadata = spec.metadata
        let nevr = "\(spec.version.rpm)-\(spec.release)"
        var header = RpmHeader(regionTag: 63)
        header[100] = .stringArray(["C"])  // HEADERI18NTABLE
        header[1000] = .string(spec.name)
        header[1001] = .string(spec.version.rpm)
        header[1002] = .string(spec.release)
        header[1004] = .i18nString(metadata.summary)
        let body = metadata.body.isEmpty ? [metadata.summary + "."] : metadata.body
        header[1005] = .i18nString(body.joined(separator: "\n"))
        header[1006] = .int32([UInt32(clamping: spec.mtime)])  // BUILDTIME
        header[1007] = .string("relctl")  // BUILDHOST
        header[1009] = .int32([UInt32(clamping: contents.reduce(0) { $0 + $1.size })])  // SIZE
        header[1014] = .string(metadata.license)
        header[1015] = .string(metadata.maintainer)  // PACKAGER
        header[1016] = .i18nString(spec.group)  // GROUP: rpmlint reads rpm's "Unspecified" as no group
        if let homepage = metadata.homepage { header[1020] = .string(homepage) }
        header[1021] = .string("linux")
        header[1022] = .string(spec.architecture.rpm)
        header[1028] = .int32(contents.map { UInt32(clamping: $0.size) })  // FILESIZES
        header[1030] = .int16(files.map { UInt16($0.fullMode) })  // FILEMODES
        header[1033] = .int16(files.map { _ in 0 })  // FILERDEVS
        header[1034] = .int32(files.map { _ in UInt32(clamping: spec.mtime) })  // FILEMTIMES
        header[1035] = .stringArray(zip(files, contents).map { $0.isDirectory ? "" : $1.digest })
        header[1036] = .stringArray(files.map { _ in "" })  // FILELINKTOS
        // RPMFILE_DOC 2, RPMFILE_LICENSE 128.
        header[1037] = .int32(files.map { ($0.isDocumentation ? 2 : 0) | ($0.isLicense ? 128 : 0) })
        header[1039] = .stringArray(files.map { _ in "root" })  // FILEUSERNAME
        header[1040] = .stringArray(files.map { _ in "root" })  // FILEGROUPNAME
        header[1044] = .string("\(spec.name)-\(nevr).src.rpm")  // SOURCERPM: its presence marks a binary rpm
        header[1045] = .int32(files.map { _ in UInt32.max })  // FILEVERIFYFLAGS
        header[1047] = .stringArray([spec.name, "\(spec.name)(\(isaSuffix(spec.architecture.rpm)))"])  // PROVIDENAME
        let requires = requirements(spec)
        header[1048] = .int32(requires.map(\.flags))  // REQUIREFLAGS
        header[1049] = .stringArray(requires.map(\.name))
        header[1050] = .stringArray(requires.map(\.version))
        let changelog = changelogText(spec)
        header[1080] = .int32([UInt32(clamping: spec.mtime / 86400 * 86400 + 43200)])  // CHANGELOGTIME, noon as rpm keeps it
        header[1081] = .stringArray(["\(metadata.maintainer) - \(nevr)"])
        header[1082] = .stringArray([changelog])
        header[1095] = .int32(files.map { _ in 1 })  // FILEDEVICES
        header[1096] = .int32(files.indices.map { UInt32($0 + 1) })  // FILEINODES, as in the payload
        header[1097] = .stringArray(files.map { _ in "" })  // FILELANGS
        header[1112] = .int32([8, 8])  // PROVIDEFLAGS: RPMSENSE_EQUAL
        header[1113] = .stringArray([nevr, nevr])
        var folders: [String] = []
        var dirIndexes: [UInt32] = []
        for file in files {
            let slash = file.path.lastIndex(of: "/")!
            let folder = String(file.path[...slash])
            if let index = folders.firstIndex(of: folder) {
                dirIndexes.append(UInt32(index))
            } else {
                folders.append(folder)
                dirIndexes.append(UInt32(folders.count - 1))
            }
        }
        header[1116] = .int32(dirIndexes)
        header[1117] = .stringArray(files.map { String($0.path[$0.path.index(after: $0.path.lastIndex(of: "/")!)...]) })
        header[1118] = .stringArray(folders)
        header[1124] = .string("cpio")  // PAYLOADFORMAT
        header[1125] = .string("gzip")  // PAYLOADCOMPRESSOR
        header[1126] = .string("9")  // PAYLOADFLAGS
        header[1132] = .string("\(spec.architecture.rpm)-pc-linux-gnu")  // PLATFORM
        header[5011] = .int32([8])  // FILEDIGESTALGO: SHA-256
        header[5062] = .string("utf-8")  // ENCODING
        header[5092] = .stringArray([payloadDigest])  // PAYLOADDIGEST
        header[5093] = .int32([8])  // PAYLOADDIGESTALGO
        return header
    }

    /// The `%{_isa}` suffix rpm's own packages provide (`x86-64`, `aarch-64`).
    package static func isaSuffix(_ arch: String) -> String {
        switch arch {
        case "x86_64": return "x86-64"
        case "aarch64": return "aarch-64"
        case "ppc64le": return "ppc-64"
        case "s390x": return "s390-64"
        case "riscv64": return "riscv-64"
        default: return "x86-32"
        }
    }

    package struct Requirement {
        package var name: String
        package var flags: UInt32
        package var version: String
    }

    /// The rpmlib features this layout uses, then the configured dependencies
    /// (`name`, or `name OP version` with OP one of `<`, `<=`, `=`, `>=`, `>`).
    package static func requirements(_ spec: LinuxPackageSpec) -> [Requirement] {
        // RPMSENSE_LESS 2 | RPMSENSE_EQUAL 8 | RPMSENSE_RPMLIB (1 << 24).
        let rpmlib: UInt32 = 2 | 8 | (1 << 24)
        var list = [
            Requirement(name: "rpmlib(CompressedFileNames)", flags: rpmlib, version: "3.0.4-1"),
            Requirement(name: "rpmlib(FileDigests)", flags: rpmlib, version: "4.6.0-1"),
            Requirement(name: "rpmlib(PayloadFilesHavePrefix)", flags: rpmlib, version: "4.0-1"),
        ]
        if spec.version.rpm.contains("~") {
            list.append(Requirement(name: "rpmlib(TildeInVersions)", flags: rpmlib, version: "4.10.0-1"))
        }
        for dependency in spec.depends {
            let parts = dependency.split(separator: " ").map(String.init)
            let operators: [String: UInt32] = ["<": 2, "<=": 10, "=": 8, "==": 8, ">=": 12, ">": 4]
            if parts.count == 3, let flags = operators[parts[1]] {
                list.append(Requirement(name: parts[0], flags: flags, version: parts[2]))
            } else {
                list.append(Requirement(name: dependency, flags: 0, version: ""))
            }
        }
        return list
    }

    package static func changelogText(_ spec: LinuxPackageSpec) -> String {
        let changes = spec.changes.isEmpty ? ["Release \(spec.version.rpm)"] : spec.changes
        return changes.map { "- " + $0 }.joined(separator: "\n")
    }
}
