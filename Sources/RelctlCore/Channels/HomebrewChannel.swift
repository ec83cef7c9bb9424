import Foundation
import RelctlBasics

/// `[homebrew] tap = …`: `dist/homebrew/Formula/{project}.rb`, a formula with one url + sha256 per
/// OS (`on_macos`/`on_linux`) and CPU (`on_arm`/`on_intel`) from this release's archives, installing
/// every binary of `bin/`, with a `test do` block. `--publish` commits it to the tap and pushes.
package struct HomebrewChannel: TapChannel {
    package static let id = "homebrew"
    package static let folder = "homebrew"
    package var settings: ChannelSettings.Repository

    package var id: String { Self.id }
    package var title: String { "homebrew formula" }

    package static func repositoryPath(project: String) -> String { "Formula/\(project).rb" }

    package func contents(_ release: ChannelRelease) throws -> Data {
        Data(try Self.formula(release, settings: settings).utf8)
    }

    package func commitMessage(_ release: ChannelRelease) -> String { "\(release.project) \(release.version)" }

    /// Homebrew's class name for a formula file name (`velo-stream` → `VeloStream`).
    package static func className(_ name: String) -> String {
        var out = ""
        var upper = true
        for character in name {
            if character == "-" || character == "_" || character == "." || character == " " {
                upper = true
                continue
            }
            if character == "+" {
                out += "x"
                continue
            }
            out += upper ? character.uppercased() : String(character)
            upper = false
        }
        return out
    }

    package static func formula(_ release: ChannelRelease, settings: ChannelSettings.Repository) throws -> String {
        let systems: [(block: String, os: String)] = [("on_macos", "macos"), ("on_linux", "linux")]
        let cpus: [(block: String, cpu: String)] = [("on_arm", "aarch64"), ("on_intel", "x86_64")]
        let formats: Set<String> = ["tar.gz", "tar.xz", "tar.bz2", "zip"]
        var body: [String] = []
        for system in systems {
            var inner: [String] = []
            for cpu in cpus {
                guard let archive = PlatformArchives.pick(release.archives, os: system.os, cpu: cpu.cpu, formats: formats)
                else { continue }
                inner += [
                    "    \(cpu.block) do",
                    "      url \(ruby(try release.url(of: archive, for: HomebrewChannel.id)))",
                    "      sha256 \(ruby(archive.sha256))",
                    "    end",
                ]
            }
            if !inner.isEmpty { body += ["  \(system.block) do"] + inner + ["  end", ""] }
        }
        guard !body.isEmpty else { throw ChannelError.noArchives(channel: Self.id, wanted: "macOS or Linux") }
        let binaries = release.config.build.binaries
        let homepage = settings.homepage ?? release.downloadBase.flatMap(Self.repositoryPage) ?? ""
        var lines = [
            "class \(className(release.project)) < Formula",
            "  desc \(ruby(settings.description ?? release.project))",
        ]
        if !homepage.isEmpty { lines.append("  homepage \(ruby(homepage))") }
        lines.append("  version \(ruby(release.version))")
        if let license = settings.license { lines.append("  license \(ruby(license))") }
        lines += [""] + body
        lines += [
            "  def install",
            "    bin.install Dir[\"bin/*\"]",
            "  end",
            "",
            "  test do",
        ]
        for binary in binaries { lines.append("    assert_predicate bin/\(ruby(binary)), :executable?") }
        if binaries.isEmpty { lines.append("    assert_predicate bin, :directory?") }
        lines += ["  end", "end", ""]
        return lines.joined(separator: "\n")
    }

    /// `https://github.com/OWNER/REPO` from a GitHub download base.
    package static func repositoryPage(_ base: String) -> String? {
        guard let range = base.range(of: "/releases/download/") else { return nil }
        return String(base[..<range.lowerBound])
    }

    /// A double-quoted Ruby string: `\`, `"` and `#{` escaped.
    package static func ruby(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "#", with: "\\#")
            .replacingOccurrences(of: "\n", with: "\\n")
        return "\"" + escaped + "\""
    }
}
