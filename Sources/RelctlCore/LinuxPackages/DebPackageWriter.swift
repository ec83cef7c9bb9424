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

    package func write(_ spec: LinuxPackageSpec) throws -> Data {
        let files = try Self.files(spec)
        let data = try Self.dataTar(files, mtime: spec.mtime)
        let control = try Self.controlTar(spec, files: files)
        var ar = ArStream(mtime: spec.mtime)
        ar.add("debian-binary", Data("2.0\n".utf8))
        ar.add("control.tar.gz", try Gzip.compress(control, destination: fileName(spec)))
        ar.add("data.tar.gz", try Gzip.compress(data, destination: fileName(spec)))
        return ar.data
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
        let overrides = LintianOverrides.render(spec)
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

    package static func dataTar(_ files: [PackagedFile], mtime: Int) throws -> Data {
        var tar = TarStream(mtime: mtime)
        try tar.addDirectory("./")
        for file in files {
            if file.isDirectory {
                try tar.addDirectory("." + file.path + "/", mode: file.mode)
            } else {
                try tar.addFile("." + file.path, contents: file.data, mode: file.mode)
            }
        }
        return tar.finish()
    }

    package static func controlTar(_ spec: LinuxPackageSpec, files: [PackagedFile]) throws -> Data {
        let md5sums = files.filter { !$0.isDirectory }.map { file in
            FileHasher.hex(Insecure.MD5.hash(data: file.data)) + "  " + file.path.dropFirst()
        }.joined(separator: "\n") + "\n"
        var tar = TarStream(mtime: spec.mtime)
        try tar.addDirectory("./")
        try tar.addFile("./control", contents: Data(control(spec, files: files).utf8), mode: 0o644)
        try tar.addFile("./md5sums", contents: Data(md5sums.utf8), mode: 0o644)
        return tar.finish()
    }

    /// The control file (deb-control(5)).
    package static func control(_ spec: LinuxPackageSpec, files: [PackagedFile]) -> String {
        // As dpkg-gencontrol counts: each file in whole KiB rounded up, each folder one.
        let installedSize = files.reduce(0) { $0 + ($1.isDirectory ? 1 : ($1.data.count + 1023) / 1024) }
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
            ? ["\(spec.metadata.summary): the \(spec.name) release \(spec.version.debian) for \(spec.architecture.debian)."]
            : spec.metadata.body
        lines += DebianCopyright.formatted(body.joined(separator: "\n"))
        return lines.joined(separator: "\n") + "\n"
    }
}
