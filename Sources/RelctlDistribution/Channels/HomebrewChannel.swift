import Foundation
import RelctlBasics
import RelctlModel

/// `[homebrew] tap = …`: `dist/homebrew/Formula/{project}.rb`, a formula with one url + sha256 per
/// OS (`on_macos`/`on_linux`) and CPU (`on_arm`/`on_intel`) from this release's archives, installing
/// every binary of `bin/` and the completions and manual pages the archive carries, with a
/// `test do` block. `--publish` commits it to the tap and pushes.
package struct HomebrewChannel: TapChannel {
    package static let id = "homebrew"
    package static let folder = "homebrew"
    package var settings: ChannelSettings.Repository

    package var id: String { Self.id }
    package var title: String { "homebrew formula" }

    package static func repositoryPath(name: String) -> String { "Formula/\(name).rb" }

    package func contents(_ release: ChannelRelease) throws -> Data {
        Data(try Self.formula(release, settings: settings).utf8)
    }

    package func commitMessage(_ release: ChannelRelease) -> String { "\(release.project) \(release.version)" }

    package static func formula(_ release: ChannelRelease, settings: ChannelSettings.Repository) throws -> String {
        let id = Self.id
        let systems: [(block: String, os: String)] = [("on_macos", "macos"), ("on_linux", "linux")]
        let cpus: [(block: String, cpu: String)] = [("on_arm", "aarch64"), ("on_intel", "x86_64")]
        let formats: Set<String> = ["tar.gz", "tar.xz", "tar.bz2", "zip"]
        var body: [String] = []
        for system in systems {
            var inner: [String] = []
            for cpu in cpus {
                guard
                    let archive = PlatformArchives.pick(release.archives, os: system.os, cpu: cpu.cpu, formats: formats)
                else { continue }
                inner += [
                    "    " + cpu.block + " do",
                    "      url " + RubyEmitter.string(try release.url(of: archive, for: HomebrewChannel.id)),
                    "      sha256 " + RubyEmitter.string(archive.sha256),
                    "    end",
                ]
            }
            if !inner.isEmpty { body += ["  " + system.block + " do"] + inner + ["  end", ""] }
        }
        guard !body.isEmpty else { throw ChannelError.noArchives(channel: Self.id, wanted: "macOS or Linux") }
        let binaries = release.config.build.binaries
        let project = release.config.project.metadata
        let homepage =
            settings.homepage ?? project.homepage ?? release.downloadBase.flatMap(Self.repositoryPage) ?? ""
        // The class name is derived from a checked formula name, never the project name pasted
        // (a name such as `x < Formula; system("…"); class Y` would run when brew loads it).
        let name = try TapChannelName.name(settings, project: release.project, table: id)
        let className = try RubyEmitter.className(formula: name)
        var lines = [
            "class " + className + " < Formula",
            "  desc "
                + RubyEmitter.string(Self.summary(settings.description ?? project.description) ?? release.project),
        ]
        if !homepage.isEmpty { lines.append("  homepage " + RubyEmitter.string(homepage)) }
        lines.append("  version " + RubyEmitter.string(release.version))
        if let license = settings.license ?? project.license {
            lines.append("  license " + RubyEmitter.string(license))
        }
        lines += [""] + body
        lines += [
            "  def install",
            "    bin.install Dir[\"bin/*\"]",
        ]
        lines += Self.shellFileInstalls(release.config.archive.files)
        lines += [
            "  end",
            "",
            "  test do",
        ]
        for binary in binaries {
            lines.append("    assert_predicate bin/" + RubyEmitter.string(binary) + ", :executable?")
        }
        if binaries.isEmpty { lines.append("    assert_predicate bin, :directory?") }
        lines += ["  end", "end", ""]
        return lines.joined(separator: "\n")
    }

    /// The completion scripts and manual pages the archive carries (`[archive] files`, by their
    /// place in it; issue 57), installed where Homebrew links them into its prefix: a `*.bash`
    /// file as bash's completion named without the suffix, a `_name` file under a completions or
    /// zsh folder as zsh's, a `*.fish` file as fish's, and `NAME.N` under a man folder as section
    /// N's page. A place that depends on the target (a `{placeholder}`) is left out: it is not
    /// the same in every archive.
    package static func shellFileInstalls(_ files: [PathMapping]) -> [String] {
        var lines: [String] = []
        for mapping in files where mapping.to.placeholders.isEmpty {
            let path = mapping.to.text
            let folders = path.split(separator: "/").dropLast().map { $0.lowercased() }
            guard let name = path.split(separator: "/").last.map(String.init), !path.hasPrefix("/"),
                !folders.contains("..")
            else { continue }
            let quoted = RubyEmitter.string(path)
            let completions = folders.contains { $0.contains("completion") }
            if name.hasSuffix(".bash"), name.count > 5 {
                lines.append("    bash_completion.install " + quoted + " => " + RubyEmitter.string(String(name.dropLast(5))))
            } else if name.hasPrefix("_"), name.count > 1, completions || folders.contains("zsh") {
                lines.append("    zsh_completion.install " + quoted)
            } else if name.hasSuffix(".fish"), name.count > 5 {
                lines.append("    fish_completion.install " + quoted)
            } else if folders.contains(where: { $0 == "man" || $0.hasPrefix("man") && $0.count == 4 }),
                let section = name.split(separator: ".").last, section.count == 1, let digit = section.first,
                ("1"..."9").contains(digit), name.count > 2
            {
                lines.append("    man" + String(digit) + ".install " + quoted)
            }
        }
        return lines
    }

    /// `https://github.com/OWNER/REPO` from a GitHub download base.
    package static func repositoryPage(_ base: String) -> String? {
        guard let range = base.range(of: "/releases/download/") else { return nil }
        return String(base[..<range.lowerBound])
    }

    /// The first line of a description: a formula's `desc` and a manifest's `description` are
    /// one line (the `[project] description`'s further lines are the long text of a .deb).
    package static func summary(_ description: String?) -> String? {
        description.flatMap { $0.split(whereSeparator: \.isNewline).first.map(String.init) }
    }
}
