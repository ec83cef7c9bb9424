import Foundation

/// The Install part of the notes, from `dist/manifest.json`: per-platform download and checksum
/// verification commands, then a table of every artifact with its size and SHA256.
public enum InstallSection {
    public static func render(manifest: ReleaseManifest, links: RepositoryLinks?) -> String {
        var out = "### Install\n\n"
        out += links == nil
            ? "Download the archive for your platform and its `.sha256` file from the release page, then verify and unpack it:\n"
            : "Download the archive for your platform, verify its checksum, and unpack it:\n"
        let platforms: [(String, (TargetTriple) -> Bool)] = [
            ("Linux", { $0.os == "linux" }),
            ("macOS", { $0.os == "darwin" || $0.os == "macos" }),
            ("Windows", { $0.isWindows }),
        ]
        var covered: Set<String> = []
        for (title, matches) in platforms {
            let artifacts = manifest.artifacts.filter { matches(TargetTriple($0.target)) }
            guard !artifacts.isEmpty else { continue }
            covered.formUnion(artifacts.map(\.name))
            out += "\n**\(title)**\n\n"
            out += title == "Windows" ? "```powershell\n" : "```sh\n"
            for artifact in artifacts {
                out += commands(for: artifact, platform: title, tag: manifest.tag, links: links)
            }
            out += "```\n"
        }
        let rest = manifest.artifacts.filter { !covered.contains($0.name) }
        if !rest.isEmpty {
            out += "\n**Other platforms**\n\n```sh\n"
            for artifact in rest { out += commands(for: artifact, platform: "Linux", tag: manifest.tag, links: links) }
            out += "```\n"
        }
        out += "\n| Artifact | Target | Size | SHA256 |\n|---|---|---|---|\n"
        for artifact in manifest.artifacts {
            // Names and triples as code spans: no Markdown escapes to clutter them (neither can hold a backtick or `|`).
            out += "| `\(artifact.name)` | `\(artifact.target)` | \(size(artifact.size)) | `\(artifact.sha256)` |\n"
        }
        return out
    }

    static func commands(for artifact: ReleaseManifest.Artifact, platform: String, tag: String, links: RepositoryLinks?) -> String {
        let name = artifact.name
        let url = links?.downloadURL(tag: tag, file: name) ?? name
        let unpack = artifact.format == "zip" ? "unzip \(name)" : "tar -xf \(name)"
        switch platform {
        case "Windows":
            var text = ""
            if links != nil { text += "Invoke-WebRequest -Uri \(url) -OutFile \(name)\n" }
            text += "if ((Get-FileHash \(name) -Algorithm SHA256).Hash -ne '\(artifact.sha256.uppercased())') { throw 'checksum mismatch: \(name)' }\n"
            text += (artifact.format == "zip" ? "Expand-Archive \(name) -DestinationPath .\n" : "tar -xf \(name)\n")
            return text
        case "macOS":
            var text = links == nil ? "" : "curl -fLO \(url)\ncurl -fLO \(url).sha256\n"
            text += "shasum -a 256 -c \(name).sha256\n\(unpack)\n"
            return text
        default:
            var text = links == nil ? "" : "curl -fLO \(url)\ncurl -fLO \(url).sha256\n"
            text += "sha256sum -c \(name).sha256\n\(unpack)\n"
            return text
        }
    }

    /// Binary units with one decimal: `812 B`, `4.2 MiB`.
    static func size(_ bytes: Int64) -> String {
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
