import Foundation
import RelctlBasics
import RelctlModel

/// The text of `{project}-installer.sh` (POSIX sh) and `{project}-installer.ps1` for one
/// release, from its `manifest.json`. The scripts carry the release's archive table and (when
/// configured) the minisign public key, and verify before they install: SHA-256 against
/// `SHA256SUMS` always, the minisign signature of `SHA256SUMS` where `minisign` is installed.
package struct InstallerScript: Sendable {
    package var manifest: ReleaseManifest
    /// `https://github.com/OWNER/REPO/releases/download/TAG/`, or nil when the repository is
    /// unknown (the script then requires `INSTALLER_BASE_URL`).
    package var baseURL: String?
    /// The base64 minisign public key (the `.pub` file's key line), or nil.
    package var minisignPublicKey: String?

    package init(manifest: ReleaseManifest, baseURL: String?, minisignPublicKey: String?) {
        self.manifest = manifest
        self.baseURL = baseURL
        self.minisignPublicKey = minisignPublicKey
    }

    /// `os-arch` as the shell script computes it from `uname`, or nil for a target it cannot run on.
    package static func machine(of triple: TargetTriple) -> String? {
        guard ["linux", "macos", "freebsd", "netbsd", "openbsd", "illumos"].contains(triple.os) else { return nil }
        let arch: String
        switch triple.arch {
        case "x86_64": arch = "x86_64"
        case "aarch64", "arm64": arch = "aarch64"
        case "i686", "i586": arch = "i686"
        case "armv7", "thumbv7neon": arch = "armv7"
        case "riscv64gc", "riscv64": arch = "riscv64"
        case "powerpc64le": arch = "ppc64le"
        case "s390x": arch = "s390x"
        case "loongarch64": arch = "loongarch64"
        default: return nil
        }
        return "\(triple.os)-\(arch)"
    }

    /// Archives per machine, best first: statically linked (musl) before glibc, tarballs before zip.
    package var unixChoices: [(machine: String, archives: [Artifact])] {
        var byMachine: [String: [Artifact]] = [:]
        for artifact in manifest.archives {
            guard let machine = Self.machine(of: TargetTriple(artifact.target)) else { continue }
            byMachine[machine, default: []].append(artifact)
        }
        func rank(_ artifact: Artifact) -> Int {
            let env = TargetTriple(artifact.target).env ?? ""
            return (env.hasPrefix("musl") ? 0 : env.hasPrefix("gnu") ? 1 : 2) * 10
                + (artifact.format == "tar.gz" ? 0 : artifact.format == "zip" ? 2 : 1)
        }
        return byMachine.keys.sorted(by: bytewiseLess).map { machine in
            (
                machine,
                byMachine[machine]!.sorted {
                    rank($0) != rank($1) ? rank($0) < rank($1) : bytewiseLess($0.name, $1.name)
                }
            )
        }
    }

    /// The sh installer. Every value from the manifest goes through ShellEmitter; the template
    /// is relctl's own text.
    package func shell() throws -> String {
        var table = ""
        for (machine, archives) in unixChoices {
            let names = archives.map(\.name).joined(separator: " ")
            // `machine` is one of `machine(of:)`'s fixed `os-arch` words.
            table +=
                "        " + machine + ") printf '%s\\n' " + (try ShellEmitter.quoted(names, what: "an archive name"))
                + " ;;\n"
        }
        return PlaceholderTemplate(Self.shellTemplate).filled(
            [
                "PROJECT": try ShellEmitter.quoted(manifest.project, what: "the project name"),
                "TAG": try ShellEmitter.quoted(manifest.tag, what: "the tag"),
                "BASE_URL": try ShellEmitter.quoted(baseURL ?? "", what: "the download URL"),
                "MINISIGN_KEY": try ShellEmitter.quoted(minisignPublicKey ?? "", what: "the minisign public key"),
                "TABLE": table, "COMMENT_PROJECT": ShellEmitter.comment(manifest.project),
                "COMMENT_TAG": ShellEmitter.comment(manifest.tag),
            ], lines: ["TABLE"])
    }

    /// The PowerShell installer: values through PowerShellEmitter.
    package func powerShell() throws -> String {
        var table = ""
        for artifact in manifest.archives where TargetTriple(artifact.target).isWindows && artifact.format == "zip" {
            let arch: String
            switch TargetTriple(artifact.target).arch {
            case "x86_64": arch = "AMD64"
            case "aarch64", "arm64": arch = "ARM64"
            case "i686", "i586": arch = "x86"
            default: continue
            }
            table +=
                "    @{ Arch = " + (try PowerShellEmitter.quoted(arch)) + "; Name = "
                + (try PowerShellEmitter.quoted(artifact.name, what: "an archive name")) + " }\n"
        }
        return PlaceholderTemplate(Self.powerShellTemplate).filled(
            [
                "PROJECT": try PowerShellEmitter.quoted(manifest.project, what: "the project name"),
                "TAG": try PowerShellEmitter.quoted(manifest.tag, what: "the tag"),
                "BASE_URL": try PowerShellEmitter.quoted(baseURL ?? "", what: "the download URL"),
                "MINISIGN_KEY": try PowerShellEmitter.quoted(minisignPublicKey ?? "", what: "the minisign public key"),
                "TABLE": table, "COMMENT_PROJECT": PowerShellEmitter.comment(manifest.project),
                "COMMENT_TAG": PowerShellEmitter.comment(manifest.tag),
            ], lines: ["TABLE"])
    }
}

/// Fills `@NAME@` placeholders in one pass over the template: a value is pasted once and never
/// searched again, so a value that itself holds `@COMMENT_PROJECT@` (or any other placeholder)
/// stays text. Replacing placeholders one after another would find later ones inside values
/// already pasted, outside their quotes.
package struct PlaceholderTemplate: Sendable {
    package var text: String

    package init(_ text: String) {
        self.text = text
    }

    /// - Parameters:
    ///   - values: by placeholder name (`PROJECT` for `@PROJECT@`), already quoted for the target language.
    ///   - lines: placeholders that stand on a line of their own: the line break after one is
    ///     dropped, the value brings its own.
    package func filled(_ values: [String: String], lines: Set<String> = []) -> String {
        var result = ""
        var rest = Substring(text)
        while let at = rest.firstIndex(of: "@") {
            result += rest[..<at]
            let afterAt = rest.index(after: at)
            let name = rest[afterAt...].prefix { $0 == "_" || ("A"..."Z").contains($0) }
            let close = name.endIndex
            guard !name.isEmpty, close < rest.endIndex, rest[close] == "@", let value = values[String(name)] else {
                result += "@"
                rest = rest[afterAt...]
                continue
            }
            result += value
            rest = rest[rest.index(after: close)...]
            if lines.contains(String(name)), rest.first == "\n" { rest = rest.dropFirst() }
        }
        return result + rest
    }
}
