import Crypto
import Foundation
import RelctlBasics

/// A binary .deb (deb(5)): an `ar` archive of `debian-binary` (`2.0`), `control.tar.gz` (control
/// and md5sums) and `data.tar.gz` (the files under `./`), written as dpkg-deb lays it out.
package struct DebPackageWriter: LinuxPackageFormat {
    package var id: String { "deb" }

    package func fileName(_ spec: LinuxPackageSpec) -> String {
        "\(spec.name)_\(spec.version.debian)_\(spec.architecture.debian).deb"
    }

    /// Writes the .deb to `url` as its members are made: data.tar streamed from the files into a
    /// temporary beside it and compressed into another (an ar header needs the member's size
    /// first), control.tar.gz from what that pass read, then the ar archive with the data member
    /// copied in. Nothing of a file's contents is held whole; the temporaries go on every path out.
    package func write(_ spec: LinuxPackageSpec, to url: URL) throws -> WrittenPackage {
        let files = try Self.files(spec)
        return try AtomicFile.write(
            to: url,
            throughDescriptor: { descriptor in
                let tar = try PackageTemporary(beside: url, "data.tar")
                defer { tar.remove() }
                let tarWriter = PackageFileWriter(descriptor: tar.descriptor, package: url, crc: true)
                let contents = try Self.dataTar(files, mtime: spec.mtime, into: tarWriter)
                try tarWriter.flush()
                let gzip = try PackageTemporary(beside: url, "data.tar.gz")
                defer { gzip.remove() }
                let gzipSize = try Gzip.compress(
                    file: tar.descriptor, size: tarWriter.count, crc: tarWriter.crc, into: gzip.descriptor,
                    destination: url)
                tar.remove()
                let control = try Gzip.compress(
                    try Self.controlTar(spec, files: files, contents: contents), destination: url.path)

                let output = PackageFileWriter(descriptor: descriptor, package: url, digests: true)
                try output.write(ArStream.magic)
                for (name, member) in [("debian-binary", Data("2.0\n".utf8)), ("control.tar.gz", control)] {
                    try output.write(ArStream.header(name, mtime: spec.mtime, size: member.count))
                    try output.write(member)
                    if member.count % 2 == 1 { try output.write([0x0A]) }
                }
                try output.write(ArStream.header("data.tar.gz", mtime: spec.mtime, size: gzipSize))
                try output.append(temporary: gzip, size: gzipSize)
                if gzipSize % 2 == 1 { try output.write([0x0A]) }
                try output.flush()
                let (sha256, sha512) = output.digests()
                return WrittenPackage(size: Int64(output.count), sha256: sha256, sha512: sha512)
            })
    }

    /// The spec's files plus what Debian wants of a package: the changelog and, for statically
    /// linked binaries, lintian's override (they are static on purpose).
    package static func files(_ spec: LinuxPackageSpec) throws -> [PackagedFile] {
        var files = spec.files.map { file -> PackagedFile in
            guard file.path == spec.documentationFolder + "/copyright" else { return file }
            var debian = file
            debian.kind = .file(Data(DebianCopyright.render(spec, onDebian: true).utf8))
            return debian
        }
        let changelog = try Gzip.compress(Data(DebianChangelog.render(spec).utf8), destination: "changelog.gz")
        files.append(
            PackagedFile(path: spec.documentationFolder + "/changelog.gz", kind: .file(changelog), mode: 0o644))
        let overrides = try LintianOverrides.render(spec)
        if !overrides.isEmpty {
            files.append(
                PackagedFile(
                    path: "/usr/share/lintian/overrides/\(spec.name)", kind: .file(Data(overrides.utf8)), mode: 0o644))
        }
        return withParents(files)
    }

    /// Every folder above every entry, once, and everything in bytewise path order.
    package static func withParents(_ files: [PackagedFile]) -> [PackagedFile] {
        var byPath: [String: PackagedFile] = [:]
        for file in files {
            byPath[file.path] = file
            var parent = file.path
            while let slash = parent.lastIndex(of: "/"), slash != parent.startIndex {
                parent = String(parent[..<slash])
                if byPath[parent] == nil { byPath[parent] = PackagedFile(path: parent, kind: .directory, mode: 0o755) }
            }
        }
        return byPath.values.sorted { bytewiseLess($0.path, $1.path) }
    }

    /// data.tar into `tar`, each file's bytes streamed from where they are; returns what the
    /// control member needs of each entry, in order: its size and MD5 (nil for a folder).
    package static func dataTar(
        _ files: [PackagedFile], mtime: Int, into tar: PackageFileWriter
    ) throws -> [FileContents?] {
        try tar.write(TarStream.header(path: "./", mode: 0o755, size: 0, type: "5", mtime: mtime))
        var contents: [FileContents?] = []
        for file in files {
            if file.isDirectory {
                try tar.write(
                    TarStream.header(path: "." + file.path + "/", mode: file.mode, size: 0, type: "5", mtime: mtime))
                contents.append(nil)
                continue
            }
            var md5 = Insecure.MD5()
            let size = try tar.append(file, hashing: &md5) { size in
                try TarStream.header(path: "." + file.path, mode: file.mode, size: size, type: "0", mtime: mtime)
            }
            try tar.zeros(TarStream.padding(size))
            contents.append(FileContents(size: size, digest: FileHasher.hex(md5.finalize())))
        }
        // The two zero blocks that end an archive.
        try tar.zeros(1024)
        return contents
    }

    package static func controlTar(
        _ spec: LinuxPackageSpec, files: [PackagedFile], contents: [FileContents?]
    ) throws -> Data {
        let md5sums =
            zip(files, contents).compactMap { file, contents in
                contents.map { $0.digest + "  " + file.path.dropFirst() }
            }.joined(separator: "\n") + "\n"
        var tar = TarStream(mtime: spec.mtime)
        try tar.addDirectory("./")
        try tar.addFile("./control", contents: Data(control(spec, contents: contents).utf8), mode: 0o644)
        try tar.addFile("./md5sums", contents: Data(md5sums.utf8), mode: 0o644)
        return tar.finish()
    }

    /// The control file (deb-control(5)).
    /// - Parameter contents: each entry's size (nil for a folder), as `dataTar` wrote it.
    package static func control(_ spec: LinuxPackageSpec, contents: [FileContents?]) -> String {
        // As dpkg-gencontrol counts: each file in whole KiB rounded up, each folder one.
        let installedSize = contents.reduce(0) { $0 + ($1.map { ($0.size + 1023) / 1024 } ?? 1) }
        var lines = [
            "Package: \(spec.name)",
            "Version: \(spec.version.debian)",
            "Architecture: \(spec.architecture.debian)",
            "Maintainer: \(spec.metadata.maintainer)",
            "Installed-Size: \(installedSize)",
        ]
        if !spec.depends.isEmpty { lines.append("Depends: \(spec.depends.joined(separator: ", "))") }
        lines += ["Section: \(spec.section)", "Priority: optional"]
        if let homepage = spec.metadata.homepage { lines.append("Homepage: \(homepage)") }
        lines.append("Description: \(spec.metadata.summary)")
        // A one-line description leaves the extended description empty, which lintian calls an
        // error (extended-description-is-empty): say what the package is in a full sentence.
        let body =
            spec.metadata.body.isEmpty
            ? [
                "\(spec.metadata.summary): the \(spec.name) release \(spec.version.debian) for \(spec.architecture.debian)."
            ]
            : spec.metadata.body
        lines += DebianCopyright.formatted(body.joined(separator: "\n"))
        return lines.joined(separator: "\n") + "\n"
    }
}

/// `/usr/share/lintian/overrides/{package}`: the tags lintian raises for choices a release binary
/// makes on purpose. Only tags that apply are written (an unused override is itself a finding):
/// a statically linked binary (musl builds, Go) is what makes one package run on every
/// distribution release.
package enum LintianOverrides {
    package static func render(_ spec: LinuxPackageSpec) throws -> String {
        // ELF headers and program headers sit at the front (gABI: the program headers follow the
        // 64-byte header in every linker's output), so 64 KiB tells without reading a whole binary.
        try spec.files.filter { try !$0.isDirectory && ELFFile.isStaticExecutable($0.head(64 << 10)) }.map {
            "\(spec.name): statically-linked-binary [\($0.path.dropFirst())]\n"
        }.joined()
    }
}

/// A System V `ar` archive as dpkg-deb writes a .deb: `!<arch>\n`, then per member a 60-byte
/// header (name without the GNU `/`, mtime, uid and gid 0, mode 100644, size) and the data,
/// padded to an even length with `\n`. `DebPackageWriter` writes the pieces as it makes them.
package enum ArStream {
    package static let magic = Array("!<arch>\n".utf8)

    /// A member's header; the `size` bytes after it are padded to an even length with `\n`.
    package static func header(_ name: String, mtime: Int, size: Int) -> [UInt8] {
        func field(_ text: String, _ width: Int) -> String {
            text.padding(toLength: width, withPad: " ", startingAt: 0)
        }
        let header =
            field(name, 16) + field(String(mtime), 12) + field("0", 6) + field("0", 6) + field("100644", 8)
            + field(String(size), 10) + "`\n"
        return Array(header.utf8)
    }
}
