import Foundation
import RelctlBasics
import RelctlModel

/// Every piece of text the package repositories write (deb822 stanzas, the Release file, the
/// apt and dnf client snippets), each behind one function that checks or quotes the values it
/// did not write itself: a value the format cannot hold is refused naming the field, never
/// written through. One file, so the shared emitters can take it over whole.
package enum RepositoryText {
    /// A deb822 field value on one line (Release fields, `Filename`): no line break, no leading blank.
    package static func singleLine(_ value: String, field: String) throws -> String {
        guard !value.contains(where: \.isNewline), value.first != " ", value.first != "\t" else {
            throw RepositoryError.badValue(
                field: field, value: value, reason: "a one-line deb822 field cannot hold a line break")
        }
        return value
    }

    /// One `Packages` stanza: the package's own control file (already deb822, as dpkg wrote it,
    /// with its trailing blank lines dropped) plus where the file lies and its size and SHA-256.
    package static func packagesStanza(control: String, filename: String, size: Int64, sha256: String) throws -> String
    {
        var body = Substring(control)
        while body.last?.isNewline == true { body = body.dropLast() }
        guard !body.contains("\n\n") else {
            throw RepositoryError.badValue(
                field: "control", value: filename, reason: "the package's control file holds more than one stanza")
        }
        return
            "\(body)\nFilename: \(try singleLine(filename, field: "Filename"))\nSize: \(size)\nSHA256: \(try singleLine(sha256, field: "SHA256"))\n"
    }

    /// A `Packages` file: the stanzas, separated by blank lines.
    package static func packagesFile(_ stanzas: [String]) -> String { stanzas.joined(separator: "\n") }

    /// The `Release` file of a suite (Debian repository format): one-line fields in the given
    /// order, then `SHA256:` with ` HASH SIZE PATH` per index.
    package static func releaseFile(
        fields: [(String, String)], indexes: [(path: String, size: Int, sha256: String)]
    ) throws -> String {
        var text = ""
        for (name, value) in fields { text += "\(name): \(try singleLine(value, field: name))\n" }
        text += "SHA256:\n"
        for index in indexes {
            let size = String(index.size)
            text +=
                " \(index.sha256) \(String(repeating: " ", count: max(0, 16 - size.count)))\(size) \(try singleLine(index.path, field: "SHA256"))\n"
        }
        return text
    }

    /// The deb822 `.sources` file users drop in /etc/apt/sources.list.d/.
    package static func aptSources(url: String, suite: String, keyring: String) throws -> String {
        "Types: deb\nURIs: \(try singleLine(url, field: "URIs"))\nSuites: \(try singleLine(suite, field: "Suites"))\nComponents: main\nSigned-By: \(try singleLine(keyring, field: "Signed-By"))\n"
    }

    /// The one-line form of the same source, for sources.list.
    package static func aptSourcesLine(url: String, suite: String, keyring: String) throws -> String {
        for (value, field) in [(url, "URIs"), (suite, "Suites"), (keyring, "Signed-By")]
        where value.contains(where: { $0.isWhitespace || $0 == "]" || $0 == "[" }) {
            throw RepositoryError.badValue(
                field: field, value: value, reason: "a sources.list line cannot hold blanks or brackets")
        }
        return "deb [signed-by=\(keyring)] \(url) \(suite) main\n"
    }

    /// RFC 1123 date in UTC as the Release file's `Date` field spells it.
    package static func releaseDate(_ epoch: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'UTC'"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(epoch)))
    }

    /// The value of `field` in a deb822 stanza (first line only), or nil.
    package static func field(_ name: String, in stanza: String) -> String? {
        for line in stanza.split(separator: "\n") where !line.hasPrefix(" ") && !line.hasPrefix("\t") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].caseInsensitiveCompare(name) == .orderedSame {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// The stanzas of a deb822 file (blank-line separated).
    package static func stanzas(_ text: String) -> [String] {
        var result: [String] = []
        var current = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).isEmpty {
                if !current.isEmpty { result.append(current) }
                current = ""
            } else {
                current += line + "\n"
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }
}

// MARK: DNF (createrepo's repodata)

extension RepositoryText {
    /// XML character data or attribute value, escaped; control characters XML 1.0 cannot hold
    /// are refused naming the field.
    package static func xml(_ value: String, field: String) throws -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                guard scalar.value >= 0x20, scalar.value != 0xFFFE, scalar.value != 0xFFFF else {
                    throw RepositoryError.badValue(
                        field: field, value: value,
                        reason: "XML cannot hold control character U+\(String(scalar.value, radix: 16))")
                }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func flagName(_ flags: UInt32) -> String? {
        switch flags & 0x0E {
        case 2: return "LT"
        case 4: return "GT"
        case 8: return "EQ"
        case 10: return "LE"
        case 12: return "GE"
        default: return nil
        }
    }

    private static func entry(_ dependency: RpmPackageInfo.Dependency) throws -> String {
        var text = "<rpm:entry name=\"\(try xml(dependency.name, field: "dependency"))\""
        if let flag = flagName(dependency.flags), !dependency.version.isEmpty {
            var version = Substring(dependency.version)
            var epoch = "0"
            if let colon = version.firstIndex(of: ":") {
                epoch = String(version[..<colon])
                version = version[version.index(after: colon)...]
            }
            var release: Substring?
            if let dash = version.lastIndex(of: "-") {
                release = version[version.index(after: dash)...]
                version = version[..<dash]
            }
            text +=
                " flags=\"\(flag)\" epoch=\"\(try xml(epoch, field: "epoch"))\" ver=\"\(try xml(String(version), field: "version"))\""
            if let release { text += " rel=\"\(try xml(String(release), field: "release"))\"" }
        }
        return text + "/>"
    }

    private static func versionElement(_ info: RpmPackageInfo) throws -> String {
        "<version epoch=\"\(info.epoch)\" ver=\"\(try xml(info.version, field: "version"))\" rel=\"\(try xml(info.release, field: "release"))\"/>"
    }

    private static func fileElement(_ path: String, info: RpmPackageInfo) throws -> String {
        let type = info.directories.contains(path) ? " type=\"dir\"" : ""
        return "<file\(type)>\(try xml(path, field: "file"))</file>"
    }

    /// One `<package>` of primary.xml (files limited to the ones createrepo lists there: /etc,
    /// bin folders).
    package static func primaryPackage(
        _ info: RpmPackageInfo, sha256: String, size: Int64, location: String, time: Int
    ) throws -> String {
        var text = "<package type=\"rpm\">\n"
        text +=
            "  <name>\(try xml(info.name, field: "name"))</name>\n  <arch>\(try xml(info.architecture, field: "arch"))</arch>\n"
        text += "  \(try versionElement(info))\n"
        text += "  <checksum type=\"sha256\" pkgid=\"YES\">\(try xml(sha256, field: "checksum"))</checksum>\n"
        text += "  <summary>\(try xml(info.summary, field: "summary"))</summary>\n"
        text += "  <description>\(try xml(info.description, field: "description"))</description>\n"
        text +=
            "  <packager>\(try xml(info.packager, field: "packager"))</packager>\n  <url>\(try xml(info.url, field: "url"))</url>\n"
        text += "  <time file=\"\(time)\" build=\"\(info.buildTime)\"/>\n"
        text += "  <size package=\"\(size)\" installed=\"\(info.installedSize)\" archive=\"\(info.archiveSize)\"/>\n"
        text += "  <location href=\"\(try xml(location, field: "location"))\"/>\n  <format>\n"
        text += "    <rpm:license>\(try xml(info.license, field: "license"))</rpm:license>\n    <rpm:vendor/>\n"
        text += "    <rpm:group>\(try xml(info.group, field: "group"))</rpm:group>\n"
        text += "    <rpm:buildhost>\(try xml(info.buildHost, field: "buildhost"))</rpm:buildhost>\n"
        text += "    <rpm:sourcerpm>\(try xml(info.sourceRPM, field: "sourcerpm"))</rpm:sourcerpm>\n"
        text += "    <rpm:header-range start=\"\(info.headerStart)\" end=\"\(info.headerEnd)\"/>\n"
        for (element, list) in [("provides", info.provides), ("requires", info.requires)] where !list.isEmpty {
            text += "    <rpm:\(element)>\n"
            for dependency in list { text += "      \(try entry(dependency))\n" }
            text += "    </rpm:\(element)>\n"
        }
        for file in info.files where file.hasPrefix("/etc/") || file.contains("bin/") {
            text += "    \(try fileElement(file, info: info))\n"
        }
        return text + "  </format>\n</package>\n"
    }

    package static func filelistsPackage(_ info: RpmPackageInfo, sha256: String) throws -> String {
        var text =
            "<package pkgid=\"\(try xml(sha256, field: "pkgid"))\" name=\"\(try xml(info.name, field: "name"))\" arch=\"\(try xml(info.architecture, field: "arch"))\">\n  \(try versionElement(info))\n"
        for file in info.files { text += "  \(try fileElement(file, info: info))\n" }
        return text + "</package>\n"
    }

    package static func otherPackage(_ info: RpmPackageInfo, sha256: String) throws -> String {
        "<package pkgid=\"\(try xml(sha256, field: "pkgid"))\" name=\"\(try xml(info.name, field: "name"))\" arch=\"\(try xml(info.architecture, field: "arch"))\">\n  \(try versionElement(info))\n</package>\n"
    }

    /// primary.xml, filelists.xml or other.xml around their package elements.
    package static func metadataDocument(_ kind: String, packages: [String]) -> String {
        let root: (String, String) =
            switch kind {
            case "primary":
                (
                    "metadata",
                    "xmlns=\"http://linux.duke.edu/metadata/common\" xmlns:rpm=\"http://linux.duke.edu/metadata/rpm\""
                )
            case "filelists": ("filelists", "xmlns=\"http://linux.duke.edu/metadata/filelists\"")
            default: ("otherdata", "xmlns=\"http://linux.duke.edu/metadata/other\"")
            }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<\(root.0) \(root.1) packages=\"\(packages.count)\">\n"
            + packages.joined() + "</\(root.0)>\n"
    }

    package struct RepomdEntry {
        package var type: String
        package var location: String
        package var sha256: String
        package var size: Int
        package var openSHA256: String
        package var openSize: Int
    }

    package static func repomd(revision: Int, entries: [RepomdEntry]) throws -> String {
        var text =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<repomd xmlns=\"http://linux.duke.edu/metadata/repo\" xmlns:rpm=\"http://linux.duke.edu/metadata/rpm\">\n  <revision>\(revision)</revision>\n"
        for entry in entries {
            text += "  <data type=\"\(try xml(entry.type, field: "type"))\">\n"
            text +=
                "    <checksum type=\"sha256\">\(entry.sha256)</checksum>\n    <open-checksum type=\"sha256\">\(entry.openSHA256)</open-checksum>\n"
            text += "    <location href=\"\(try xml(entry.location, field: "location"))\"/>\n"
            text +=
                "    <timestamp>\(revision)</timestamp>\n    <size>\(entry.size)</size>\n    <open-size>\(entry.openSize)</open-size>\n  </data>\n"
        }
        return text + "</repomd>\n"
    }

    /// The `.repo` file users drop in /etc/yum.repos.d/ (INI: one-line values only).
    /// - Parameter packagesSigned: whether the rpms carry signatures. dnf refuses an unsigned rpm
    ///   under `gpgcheck=1`, so unsigned ones get `gpgcheck=0`; the signed repomd.xml still names
    ///   every rpm's SHA-256, which dnf checks under `repo_gpgcheck=1`.
    package static func dnfRepoFile(
        id: String, name: String, baseURL: String, keys: [String], packagesSigned: Bool
    ) throws -> String {
        guard id.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }), !id.isEmpty else {
            throw RepositoryError.badValue(
                field: "repo id", value: id, reason: "a dnf repo id is letters, digits, `-`, `_` or `.`")
        }
        for key in keys where key.contains(where: \.isWhitespace) {
            throw RepositoryError.badValue(field: "gpgkey", value: key, reason: "a gpgkey URL cannot hold blanks")
        }
        return
            "[\(id)]\nname=\(try singleLine(name, field: "name"))\nbaseurl=\(try singleLine(baseURL, field: "baseurl"))\nenabled=1\ngpgcheck=\(packagesSigned ? 1 : 0)\nrepo_gpgcheck=1\ngpgkey=\(keys.joined(separator: " "))\n"
    }
}

// MARK: AUR (PKGBUILD, .SRCINFO)

extension RepositoryText {
    /// A bash word: the shared POSIX sh emitter's single-quoted word (a PKGBUILD is bash, which
    /// reads it unchanged); a NUL is refused.
    package static func bashQuoted(_ value: String) throws -> String {
        try ShellEmitter.quoted(value, what: "a PKGBUILD value")
    }

    /// One `.SRCINFO` line: `\tkey = value`; a line break cannot be represented.
    package static func srcinfoLine(_ key: String, _ value: String, indent: Bool = true) throws -> String {
        "\(indent ? "\t" : "")\(key) = \(try singleLine(value, field: key))\n"
    }
}

// MARK: winget (YAML manifests)

extension RepositoryText {
    /// A YAML scalar, always double-quoted, by the shared YAML emitter: whatever the value holds
    /// (`: `, `#`, quotes, line breaks, a leading `-` or `*`), YAML 1.1 and 1.2 read one string.
    package static func yamlQuoted(_ value: String) -> String { YAMLEmitter.doubleQuoted(value) }

    /// A winget manifest: the schema comment, then `key: "value"` lines and pre-rendered blocks.
    package static func wingetManifest(
        schema: String, _ lines: [(String, String)], blocks: String = "", tail: [(String, String)]
    )
        -> String
    {
        var text = "# yaml-language-server: $schema=https://aka.ms/winget-manifest.\(schema).schema.json\n\n"
        for (key, value) in lines { text += "\(key): \(yamlQuoted(value))\n" }
        text += blocks
        for (key, value) in tail { text += "\(key): \(yamlQuoted(value))\n" }
        return text
    }
}

// MARK: Release notes

extension RepositoryText {
    /// The release notes' "add the repository" part, when `[repository] url` says where it is served.
    package static func notesSnippet(
        _ settings: RepositorySettings, project: String, rpmsSigned: Bool
    ) throws -> String? {
        guard let url = settings.url, settings.isEnabled else { return nil }
        var out = "Or add the signed package repository once, then install and upgrade with your package manager:\n"
        if let suite = settings.aptSuite {
            let keyring = "/usr/share/keyrings/\(AptRepository.keyringName(project: project))"
            let line = try aptSourcesLine(url: "\(url)/apt", suite: suite, keyring: keyring)
            out += "\n**Debian, Ubuntu** (apt)\n\n```sh\n"
            try out +=
                "sudo curl -fsSLo \(bashQuoted(keyring)) \(bashQuoted("\(url)/apt/\(AptRepository.keyringName(project: project))"))\n"
            try out +=
                "echo \(bashQuoted(String(line.dropLast()))) | sudo tee \(bashQuoted("/etc/apt/sources.list.d/\(project).list"))\n"
            try out += "sudo apt update && sudo apt install \(bashQuoted(project))\n```\n"
        }
        if settings.dnf {
            // The rpm key file exists only when an rpm signing key does (RepositoryBuilder).
            var keys = ["\(url)/dnf/\(DnfRepository.keyName(project: project))"]
            if rpmsSigned { keys.append("\(url)/dnf/\(RepositoryBuilder.rpmKeyName(project: project))") }
            out +=
                "\n**Fedora, RHEL** (dnf): save as `/etc/yum.repos.d/\(project).repo`, then `sudo dnf install \(project)`\n\n```ini\n"
            out += try dnfRepoFile(
                id: project, name: project, baseURL: "\(url)/dnf", keys: keys, packagesSigned: rpmsSigned)
            out += "```\n"
        }
        return out + "\n"
    }
}
