import Foundation
import RelctlBasics

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The packages of the Cargo workspace a manifest belongs to, and where each one's version is
/// written: what Cargo.lock and path-dependency requirements must follow.
package struct CargoWorkspace {
    package struct Package: Sendable {
        package var name: String
        package var manifest: URL
        /// The file and line holding this package's version (the workspace root's
        /// `[workspace.package]` for `version.workspace = true`); nil when it declares none.
        package var versionFile: URL?
        package var versionLine: Int?
    }

    /// The folder holding Cargo.lock: the workspace root, or the crate itself.
    package var root: URL
    package var rootManifest: URL
    package var packages: [Package]

    /// The workspace holding `manifest`, found as cargo finds it: the first Cargo.toml with
    /// `[workspace]` from the manifest's folder upwards, past `projectRoot` (a relctl.toml in a
    /// member crate, as in ripgrep's `crates/ignore`) up to the repository's top, provided the
    /// manifest is one of its members; else the crate alone.
    package static func load(containing manifest: URL, projectRoot: URL) throws -> CargoWorkspace {
        let top =
            Git.repositoryTop(of: projectRoot.standardizedFileURL.path) ?? projectRoot.standardizedFileURL.path
        var directory = manifest.deletingLastPathComponent().standardizedFileURL
        var found: (URL, TOMLDocument)?
        while directory.path.hasPrefix(top) {
            let candidate = directory.appendingPathComponent("Cargo.toml")
            if let document = try? TOMLDocument(file: ProjectFile.open(location: candidate)),
                document.root["workspace"]?.table != nil
            {
                found = (candidate, document)
                break
            }
            if directory.path == top || directory.path == "/" { break }
            directory = directory.deletingLastPathComponent()
        }
        guard let (rootManifest, rootDocument) = found else {
            let package = try Self.package(at: manifest.standardizedFileURL, workspace: nil)
            return CargoWorkspace(
                root: manifest.deletingLastPathComponent().standardizedFileURL,
                rootManifest: manifest.standardizedFileURL,
                packages: package.map { [$0] } ?? [])
        }
        let rootDirectory = rootManifest.deletingLastPathComponent()
        let packages = try Self.packages(ofWorkspace: rootManifest, document: rootDocument)
        // A workspace above the project that does not list this crate is not its workspace.
        let standalone = manifest.standardizedFileURL
        if projectRoot.standardizedFileURL.path.hasPrefix(rootDirectory.standardizedFileURL.path + "/"),
            !packages.contains(where: { $0.manifest.path == standalone.path })
        {
            let package = try Self.package(at: standalone, workspace: nil)
            return CargoWorkspace(
                root: standalone.deletingLastPathComponent(), rootManifest: standalone,
                packages: package.map { [$0] } ?? [])
        }
        return CargoWorkspace(
            root: rootDirectory.standardizedFileURL, rootManifest: rootManifest.standardizedFileURL, packages: packages)
    }

    /// The packages of the workspace whose root manifest is `rootManifest`: its members and the
    /// path dependencies inside its folder. Read once per `TOMLReadCache` scope.
    private static func packages(ofWorkspace rootManifest: URL, document rootDocument: TOMLDocument) throws -> [Package] {
        let cache = TOMLReadCache.current
        let key = "Cargo workspace " + rootManifest.standardizedFileURL.path
        if let cached = cache?.value(key, as: [Package].self) { return cached }
        let rootDirectory = rootManifest.deletingLastPathComponent()
        let workspace = rootDocument.root["workspace"]?.table ?? [:]
        let excluded = Set(
            (workspace["exclude"]?.array ?? []).compactMap(\.string).map {
                rootDirectory.appendingPathComponent($0).standardizedFileURL.path
            })
        var queue: [URL] = []
        if rootDocument.root["package"]?.table != nil { queue.append(rootManifest) }
        for pattern in (workspace["members"]?.array ?? []).compactMap(\.string) {
            for folder in Self.expand(pattern, in: rootDirectory) where !excluded.contains(folder.path) {
                let member = folder.appendingPathComponent("Cargo.toml")
                if FileSystem.exists(member) { queue.append(member) }
            }
        }
        // Path dependencies inside the workspace folder are members too, as Cargo treats them.
        var seen: Set<String> = []
        var packages: [Package] = []
        while !queue.isEmpty {
            let next = queue.removeFirst().standardizedFileURL
            guard seen.insert(next.path).inserted else { continue }
            if let package = try Self.package(at: next, workspace: (rootManifest, rootDocument)) {
                packages.append(package)
            }
            for dependency in Self.pathDependencies(of: next)
            where dependency.path.hasPrefix(rootDirectory.standardizedFileURL.path + "/")
                && !excluded.contains(dependency.deletingLastPathComponent().path)
            {
                queue.append(dependency)
            }
        }
        cache?.keep(packages, for: key)
        return packages
    }

    /// Every Cargo.toml whose dependency tables may name an own crate.
    package var manifests: [URL] {
        var all = [rootManifest]
        for package in packages where !all.contains(package.manifest) { all.append(package.manifest) }
        return all
    }

    private static func package(at manifest: URL, workspace: (URL, TOMLDocument)?) throws -> Package? {
        guard let document = try? TOMLDocument(file: ProjectFile.open(location: manifest)),
            let table = document.root["package"]?.table,
            let name = table["name"]?.string
        else { return nil }
        var package = Package(name: name, manifest: manifest)
        if table["version"]?.string != nil {
            package.versionFile = manifest
            package.versionLine = ManifestText.tomlVersionLine(in: document.text, table: "package")
        } else if table["version"]?.table?["workspace"]?.bool == true, let (rootManifest, rootDocument) = workspace {
            package.versionFile = rootManifest.standardizedFileURL
            package.versionLine = ManifestText.tomlVersionLine(in: rootDocument.text, table: "workspace.package")
        }
        return package
    }

    private static func pathDependencies(of manifest: URL) -> [URL] {
        guard let document = try? TOMLDocument(file: ProjectFile.open(location: manifest)) else { return [] }
        var tables: [[String: TOMLNode]] = []
        for key in ["dependencies", "dev-dependencies", "build-dependencies"] {
            if let table = document.root[key]?.table { tables.append(table) }
        }
        for (_, target) in document.root["target"]?.table ?? [:] {
            for key in ["dependencies", "dev-dependencies", "build-dependencies"] {
                if let table = target.table?[key]?.table { tables.append(table) }
            }
        }
        let folder = manifest.deletingLastPathComponent()
        return tables.flatMap { $0.values }.compactMap { $0.table?["path"]?.string }
            .map { folder.appendingPathComponent($0).appendingPathComponent("Cargo.toml").standardizedFileURL }
            .filter { FileSystem.exists($0) }
    }

    /// Expands a `members` entry (`crates/*`, `tools/xtask`) one path component at a time.
    package static func expand(_ pattern: String, in directory: URL) -> [URL] {
        var current = [directory.standardizedFileURL]
        for component in pattern.split(separator: "/").map(String.init) where component != "." {
            if !component.contains(where: { "*?[".contains($0) }) {
                current = current.map { $0.appendingPathComponent(component).standardizedFileURL }
                continue
            }
            current = current.flatMap { folder -> [URL] in
                let names = (try? FileSystem.names(in: folder)) ?? []
                return names.sorted().filter { fnmatch(component, $0, 0) == 0 && !$0.hasPrefix(".") }
                    .map { folder.appendingPathComponent($0) }
                    .filter { FileSystem.isDirectory($0) }
            }
        }
        return current
    }
}
