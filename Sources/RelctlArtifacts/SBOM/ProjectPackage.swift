import Foundation
import RelctlBasics

/// The project's own package as a package URL, the SBOM's subject (`metadata.component`) so a
/// scanner can tie the archive to the package it distributes, as cargo-cyclonedx names the
/// crate: `pkg:cargo/NAME@VERSION` from Cargo.toml's `[package]` (or, in a workspace root, the
/// Cargo.lock member named like the project), `pkg:npm/NAME@VERSION` from package.json,
/// `pkg:pypi/NAME@VERSION` from pyproject.toml; else `pkg:generic/PROJECT@VERSION`. The version
/// is the release's, which `validate-tag` has checked against those manifests.
package struct ProjectPackage: Sendable, Equatable {
    package var name: String
    package var purl: String

    /// Reads the manifests at `root`; a manifest that cannot be read is skipped (the lockfile
    /// reader and `validate-tag` report broken ones), so the SBOM still gets a subject.
    package static func find(root: URL, project: String, version: String) -> ProjectPackage {
        let segment = LockfileDependencies.purlSegment
        let at = "@" + segment(version)
        if let name = cargoName(root: root, project: project) {
            return ProjectPackage(name: name, purl: "pkg:cargo/\(segment(name))\(at)")
        }
        if let data = (try? ProjectFile.open("package.json", in: root))?.data(),
            let name = (try? LockfileDependencies.json(data, file: "package.json"))?["name"] as? String, !name.isEmpty
        {
            let purlName =
                name.hasPrefix("@")
                ? name.split(separator: "/", maxSplits: 1).map { segment(String($0)) }.joined(separator: "/")
                : segment(name)
            return ProjectPackage(name: name, purl: "pkg:npm/\(purlName)\(at)")
        }
        if let data = (try? ProjectFile.open("pyproject.toml", in: root))?.data(),
            let document = try? LockfileDependencies.toml(data, file: "pyproject.toml"),
            let name = document["project"]?.table?["name"]?.string
                ?? document["tool"]?.table?["poetry"]?.table?["name"]?.string,
            !name.isEmpty
        {
            // PEP 503 normalisation, as the purl spec asks for pypi names.
            let normalized = name.lowercased().replacingOccurrences(of: "_", with: "-").replacingOccurrences(
                of: ".", with: "-")
            return ProjectPackage(name: name, purl: "pkg:pypi/\(segment(normalized))\(at)")
        }
        return generic(project: project, version: version)
    }

    /// `pkg:generic/PROJECT@VERSION`: a project no package manager names.
    package static func generic(project: String, version: String) -> ProjectPackage {
        let segment = LockfileDependencies.purlSegment
        return ProjectPackage(name: project, purl: "pkg:generic/\(segment(project))@\(segment(version))")
    }

    /// The crate: Cargo.toml's `[package] name`, or in a virtual workspace the Cargo.lock package
    /// without a source (a member) named like the project.
    package static func cargoName(root: URL, project: String) -> String? {
        if let data = (try? ProjectFile.open("Cargo.toml", in: root))?.data(),
            let name = (try? LockfileDependencies.toml(data, file: "Cargo.toml"))?["package"]?.table?["name"]?.string,
            !name.isEmpty
        {
            return name
        }
        guard let data = (try? ProjectFile.open("Cargo.lock", in: root))?.data(),
            let packages = (try? LockfileDependencies.toml(data, file: "Cargo.lock"))?["package"]?.array
        else { return nil }
        let members = packages.compactMap { node -> String? in
            guard let package = node.table, package["source"] == nil else { return nil }
            return package["name"]?.string
        }
        return members.first { $0 == project }
    }

    /// The subject component: the package, with the archive as its distribution (name and hash).
    package func component(version: String, archiveName: String, archiveSHA256: String) -> SBOMDocument.Component {
        SBOMDocument.Component(
            type: "application", bomRef: purl, name: name, version: version, purl: purl,
            externalReferences: [
                .init(
                    type: "distribution",
                    url: archiveName.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? archiveName,
                    hashes: [.init(alg: "SHA-256", content: archiveSHA256)])
            ])
    }
}
