import Foundation
import RelctlBasics
import RelctlModel
import RelctlTOML

/// The project's third-party packages, from the lockfiles at its root: `Cargo.lock`,
/// `package-lock.json`, `uv.lock`, `Package.resolved` and Go's `go.sum`. The project's own packages (workspace
/// members, the npm root, editable uv packages) are not dependencies and are left out.
package enum LockfileDependencies {
    package static let fileNames = ["Cargo.lock", "package-lock.json", "uv.lock", "Package.resolved", "go.sum"]

    /// Every package found, one component per package URL, sorted by it.
    package static func read(root: URL) throws -> [SBOMDocument.Component] {
        var byReference: [String: SBOMDocument.Component] = [:]
        for name in fileNames {
            // A lockfile committed as a link out of the project is refused, not read (issue 55).
            guard let data = try ProjectFile.open(name, in: root).data() else { continue }
            let components: [SBOMDocument.Component]
            switch name {
            case "Cargo.lock": components = try cargo(data, file: name)
            case "package-lock.json": components = try npm(data, file: name)
            case "uv.lock": components = try uv(data, file: name)
            case "go.sum": components = try go(data, file: name)
            default: components = try swiftPM(data, file: name)
            }
            for component in components {
                guard let reference = component.bomRef, byReference[reference] == nil else { continue }
                byReference[reference] = component
            }
        }
        return byReference.keys.sorted(by: bytewiseLess).compactMap { byReference[$0] }
    }

    /// go.sum's modules: `MODULE VERSION h1:HASH` lines (a `VERSION/go.mod` line only vouches for
    /// a module's go.mod, read during version selection, not for code that is built). The `h1:`
    /// hash is Go's own tree hash, not a file digest CycloneDX can name, so it is not carried.
    package static func go(_ data: Data, file: String) throws -> [SBOMDocument.Component] {
        var components: [SBOMDocument.Component] = []
        for (index, line) in String(decoding: data, as: UTF8.self).split(separator: "\n").enumerated() {
            let fields = line.split(separator: " ")
            guard !fields.isEmpty else { continue }
            guard fields.count == 3, fields[2].hasPrefix("h1:") || fields[2].contains(":") else {
                throw SBOMError(file: file, reason: "line \(index + 1) is not `MODULE VERSION HASH`")
            }
            let module = String(fields[0])
            let version = String(fields[1])
            guard !version.hasSuffix("/go.mod") else { continue }
            let path = module.split(separator: "/").map { purlSegment(String($0)) }.joined(separator: "/")
            components.append(
                library(name: module, version: version, purl: "pkg:golang/\(path)@\(purlSegment(version))"))
        }
        return components
    }

    package static func library(
        name: String, version: String, purl: String, hashes: [SBOMDocument.Hash] = [],
        references: [SBOMDocument.ExternalReference] = []
    ) -> SBOMDocument.Component {
        SBOMDocument.Component(
            type: "library", bomRef: purl, name: name, version: version, purl: purl,
            hashes: hashes.isEmpty ? nil : hashes, externalReferences: references.isEmpty ? nil : references)
    }

    package static func toml(_ data: Data, file: String) throws -> [String: TOMLNode] {
        do { return try TOMLDocument(text: String(decoding: data, as: UTF8.self), path: file).root } catch let error
            as RelctlError
        {
            throw SBOMError(file: file, reason: "cannot be read: \(error.diagnostics.first?.message ?? "invalid TOML")")
        }
    }

    package static func json(_ data: Data, file: String) throws -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw SBOMError(file: file, reason: "is not a JSON object")
        }
        return object
    }

    /// Percent-encodes a package URL segment (RFC 3986 unreserved characters stay).
    package static func purlSegment(_ text: String) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    package static func hex(_ bytes: Data) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// `[[package]]` entries with a `source` (registry or git); `checksum` is the crate's SHA-256.
    package static func cargo(_ data: Data, file: String) throws -> [SBOMDocument.Component] {
        try (toml(data, file: file)["package"]?.array ?? []).compactMap { node in
            guard let package = node.table, let name = package["name"]?.string,
                let version = package["version"]?.string,
                package["source"]?.string != nil
            else { return nil }
            var hashes: [SBOMDocument.Hash] = []
            if let checksum = package["checksum"]?.string, checksum.count == 64 {
                hashes.append(.init(alg: "SHA-256", content: checksum.lowercased()))
            }
            return library(
                name: name, version: version, purl: "pkg:cargo/\(purlSegment(name))@\(purlSegment(version))",
                hashes: hashes)
        }
    }

    /// lockfileVersion 2/3 `packages` (keys `node_modules/…`); `integrity` is an SRI hash.
    package static func npm(_ data: Data, file: String) throws -> [SBOMDocument.Component] {
        let lock = try json(data, file: file)
        guard let packages = lock["packages"] as? [String: Any] else {
            throw SBOMError(
                file: file,
                reason: "has no `packages` map (lockfileVersion 1 is not read; run `npm install --lockfile-version 3`)")
        }
        return packages.keys.sorted(by: bytewiseLess).compactMap { key in
            guard let range = key.range(of: "node_modules/", options: .backwards),
                let entry = packages[key] as? [String: Any],
                entry["link"] as? Bool != true, let version = entry["version"] as? String
            else { return nil }
            let name = (entry["name"] as? String) ?? String(key[range.upperBound...])
            let purlName =
                name.hasPrefix("@")
                ? name.split(separator: "/", maxSplits: 1).map { purlSegment(String($0)) }.joined(separator: "/")
                : purlSegment(name)
            var hashes: [SBOMDocument.Hash] = []
            for token in ((entry["integrity"] as? String) ?? "").split(separator: " ") {
                guard let dash = token.firstIndex(of: "-"),
                    let bytes = Data(base64Encoded: String(token[token.index(after: dash)...]))
                else { continue }
                let alg = ["sha512": "SHA-512", "sha384": "SHA-384", "sha256": "SHA-256", "sha1": "SHA-1"][
                    String(token[..<dash])]
                if let alg { hashes.append(.init(alg: alg, content: hex(bytes))) }
            }
            return library(
                name: name, version: version, purl: "pkg:npm/\(purlName)@\(purlSegment(version))", hashes: hashes)
        }
    }

    /// `[[package]]` from a registry; the sdist's hash is the component's, every file (sdist and
    /// wheels) is a distribution reference with its own hash.
    package static func uv(_ data: Data, file: String) throws -> [SBOMDocument.Component] {
        try (toml(data, file: file)["package"]?.array ?? []).compactMap { node in
            guard let package = node.table, let name = package["name"]?.string,
                let version = package["version"]?.string,
                let source = package["source"]?.table,
                source["registry"] != nil || source["url"] != nil || source["git"] != nil
            else { return nil }
            func hash(_ text: String?) -> [SBOMDocument.Hash] {
                guard let text, text.hasPrefix("sha256:") else { return [] }
                return [.init(alg: "SHA-256", content: String(text.dropFirst(7)).lowercased())]
            }
            var references: [SBOMDocument.ExternalReference] = []
            var hashes: [SBOMDocument.Hash] = []
            if let sdist = package["sdist"]?.table, let url = sdist["url"]?.string {
                hashes = hash(sdist["hash"]?.string)
                references.append(.init(type: "distribution", url: url, hashes: hashes.isEmpty ? nil : hashes))
            }
            for wheel in package["wheels"]?.array ?? [] {
                guard let wheel = wheel.table, let url = wheel["url"]?.string else { continue }
                let wheelHash = hash(wheel["hash"]?.string)
                references.append(.init(type: "distribution", url: url, hashes: wheelHash.isEmpty ? nil : wheelHash))
            }
            let normalized = name.lowercased().replacingOccurrences(of: "_", with: "-").replacingOccurrences(
                of: ".", with: "-")
            return library(
                name: name, version: version, purl: "pkg:pypi/\(purlSegment(normalized))@\(purlSegment(version))",
                hashes: hashes, references: references)
        }
    }

    /// SwiftPM's pins (format 1, 2 and 3): `pkg:swift/<host>/<path>@<version>`; a pin on a
    /// branch or revision gets the revision as its version.
    package static func swiftPM(_ data: Data, file: String) throws -> [SBOMDocument.Component] {
        let resolved = try json(data, file: file)
        let pins =
            (resolved["pins"] as? [[String: Any]])
            ?? ((resolved["object"] as? [String: Any])?["pins"] as? [[String: Any]]) ?? []
        return pins.compactMap { pin in
            guard let location = (pin["location"] ?? pin["repositoryURL"]) as? String,
                let state = pin["state"] as? [String: Any],
                let version = (state["version"] as? String) ?? (state["revision"] as? String)
            else { return nil }
            var path = location
            for prefix in ["https://", "http://", "ssh://", "git@"] where path.hasPrefix(prefix) {
                path.removeFirst(prefix.count)
            }
            path = path.replacingOccurrences(of: ":", with: "/")
            if path.hasSuffix(".git") { path.removeLast(4) }
            while path.hasSuffix("/") { path.removeLast() }
            let segments = path.split(separator: "/").map { purlSegment(String($0)) }
            guard let name = segments.last else { return nil }
            let purl = "pkg:swift/\(segments.joined(separator: "/"))@\(purlSegment(version))"
            return library(
                name: String(name), version: version, purl: purl, references: [.init(type: "vcs", url: location)])
        }
    }
}
