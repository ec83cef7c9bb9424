import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// The Install part of the notes, from `dist/manifest.json`: per-platform download and checksum
/// verification commands, then a table of every artifact with its size and SHA256.
package enum InstallSection {
    package static func render(
        manifest: ReleaseManifest, links: RepositoryLinks?, verification: InstallVerification? = nil
    ) -> String {
        var out = "### Install\n\n"
        if let verification { out += installers(verification, tag: manifest.tag, links: links) }
        if let repositories = verification?.packageRepositories { out += repositories }
        out +=
            links == nil
            ? "Download the archive for your platform from the release page, then verify and unpack it:\n"
            : "Download the archive for your platform, verify its checksum, and unpack it:\n"
        let platforms: [(String, (TargetTriple) -> Bool)] = [
            ("Linux", { $0.os == "linux" }),
            ("macOS", { $0.os == "darwin" || $0.os == "macos" }),
            ("Windows", { $0.isWindows }),
        ]
        var covered: Set<String> = []
        for (title, matches) in platforms {
            let artifacts = manifest.archives.filter { matches(TargetTriple($0.target)) }
            guard !artifacts.isEmpty else { continue }
            covered.formUnion(artifacts.map(\.name))
            out += "\n**\(title)**\n\n"
            out += title == "Windows" ? "```powershell\n" : "```sh\n"
            for artifact in artifacts {
                out += commands(for: artifact, platform: title, tag: manifest.tag, links: links)
            }
            out += "```\n"
        }
        let rest = manifest.archives.filter { !covered.contains($0.name) }
        if !rest.isEmpty {
            out += "\n**Other platforms**\n\n```sh\n"
            for artifact in rest { out += commands(for: artifact, platform: "Linux", tag: manifest.tag, links: links) }
            out += "```\n"
        }
        out += binaryTargets(manifest, links: links)
        if let verification, verification.hasSignatures {
            out += signatures(verification, tag: manifest.tag, links: links)
        }
        out += "\n| Artifact | Target | Size | SHA256 |\n|---|---|---|---|\n"
        for artifact in manifest.artifacts {
            // Names and triples as code spans: no Markdown escapes to clutter them (neither can hold a backtick or `|`).
            out += "| `\(artifact.name)` | `\(artifact.target)` | \(size(artifact.size)) | `\(artifact.sha256)` |\n"
        }
        return out
    }

    /// The SwiftPM artifact bundle (`format = "artifactbundle"`) as a `Package.swift` line: its
    /// checksum is the zip's SHA-256, which `swift package compute-checksum` prints.
    package static func binaryTargets(_ manifest: ReleaseManifest, links: RepositoryLinks?) -> String {
        let bundles = manifest.artifacts.filter { $0.format == ArtifactBundle.format }
        guard !bundles.isEmpty else { return "" }
        var out = "\n**Swift packages** (a `binaryTarget` of the artifact bundle):\n\n```swift\n"
        for bundle in bundles {
            let url = links?.downloadURL(tag: manifest.tag, file: bundle.name) ?? bundle.name
            out +=
                ".binaryTarget(name: \"\(manifest.project)\", url: \"\(url)\", checksum: \"\(bundle.sha256)\")\n"
        }
        return out + "```\n"
    }

    /// The one-line installers, which verify the checksum (and the signature, where minisign is
    /// installed) before installing.
    package static func installers(_ verification: InstallVerification, tag: String, links: RepositoryLinks?) -> String
    {
        var out = ""
        if let sh = verification.shellInstaller {
            out +=
                "Install with one command (Linux, macOS; checks the SHA-256\(verification.minisignKey == nil ? "" : " and, when minisign is installed, the signature") before installing into `~/.local/bin`, or `--to DIR`):\n\n```sh\n"
            out += links.map { "curl -fsSL \($0.downloadURL(tag: tag, file: sh)) | sh\n" } ?? "sh \(sh)\n"
            out += "```\n\n"
        }
        if let ps1 = verification.powerShellInstaller {
            out += "On Windows (PowerShell):\n\n```powershell\n"
            if let links { out += "Invoke-WebRequest -Uri \(links.downloadURL(tag: tag, file: ps1)) -OutFile \(ps1)\n" }
            out += "powershell -ExecutionPolicy Bypass -File .\\\(ps1)\n```\n\n"
        }
        if !out.isEmpty { out += "Or by hand:\n" }
        return out
    }

    /// Checking SHA256SUMS's signatures with the stock tools, then the files against it.
    package static func signatures(_ verification: InstallVerification, tag: String, links: RepositoryLinks?) -> String
    {
        let sums = ChecksumAlgorithm.sha256.sumsFileName
        var out = "\n**Verify the signature** of `\(sums)`, then the files you downloaded against it:\n\n```sh\n"
        if let links {
            var files = [sums]
            if verification.minisignKey != nil { files.append(sums + ReleaseSigner.minisignExtension) }
            if verification.allowedSigner != nil { files.append(sums + ReleaseSigner.sshExtension) }
            for file in files { out += "curl -fLO \(links.downloadURL(tag: tag, file: file))\n" }
        }
        if let key = verification.minisignKey {
            out += "minisign -Vm \(sums) -P \(key)\n"
        }
        if let signer = verification.allowedSigner {
            let principal =
                signer.split(separator: " ").first.map { String($0.split(separator: ",").first ?? $0) } ?? signer
            out += "echo '\(signer)' > allowed_signers\n"
            out +=
                "ssh-keygen -Y verify -f allowed_signers -I \(principal) -n file -s \(sums)\(ReleaseSigner.sshExtension) < \(sums)\n"
        }
        out += "sha256sum -c --ignore-missing \(sums)\n```\n"
        return out
    }

    package static func commands(
        for artifact: Artifact, platform: String, tag: String, links: RepositoryLinks?
    ) -> String {
        let name = artifact.name
        let url = links?.downloadURL(tag: tag, file: name) ?? name
        let unpack = artifact.format == "zip" ? "unzip \(name)" : "tar -xf \(name)"
        switch platform {
        case "Windows":
            var text = ""
            if links != nil { text += "Invoke-WebRequest -Uri \(url) -OutFile \(name)\n" }
            text +=
                "if ((Get-FileHash \(name) -Algorithm SHA256).Hash -ne '\(artifact.sha256.uppercased())') { throw 'checksum mismatch: \(name)' }\n"
            text +=
                artifact.format == "msi"
                ? "msiexec /i \(name)\n"
                : (artifact.format == "zip" ? "Expand-Archive \(name) -DestinationPath .\n" : "tar -xf \(name)\n")
            return text
        // The digest is written out here: the per-archive `.sha256` files are CI's hand-over
        // between jobs, not release assets, so a command must not download one.
        case "macOS":
            var text = links == nil ? "" : "curl -fLO \(url)\n"
            text += "echo '\(artifact.sha256)  \(name)' | shasum -a 256 -c -\n\(unpack)\n"
            return text
        default:
            var text = links == nil ? "" : "curl -fLO \(url)\n"
            text += "echo '\(artifact.sha256)  \(name)' | sha256sum -c -\n\(unpack)\n"
            return text
        }
    }

    /// Binary units with one decimal: `812 B`, `4.2 MiB`.
    package static func size(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return String(format: "%.1f %@", value, units[unit])
    }
}
