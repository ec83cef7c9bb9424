import Foundation
import RelctlTestTraits
import Testing

/// One emitter per language (issue 39): the generators of Ruby (Homebrew formula), Nix (flake),
/// JSON (Scoop manifest), POSIX sh and PowerShell (installers, CI script lines), YAML (GitHub
/// and GitLab CI) and deb control / rpm header text (LinuxPackages) put no value into their text by string interpolation unless an emitter wrote
/// it. Every `\(…)` in these files is read; it passes when it is an emitter call, or when it is
/// listed below with the reason it is not a value from outside (a relctl constant, a name the
/// config loader already checked against a grammar, or the text of a diagnostic, not of the
/// generated file). A new interpolation fails this test until a reviewer adds an emitter call or
/// a reason. Concatenation is checked for the common form: a string literal joined with `+` to
/// a property of the release, config, settings, manifest or target.
@Suite("Generator source scan", .timeLimit(.minutes(30)), .removesTemporaries)
struct GeneratorSourceScanTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let emitters = [
        "YAMLEmitter.", "YAMLLines.", "ShellEmitter.", "PowerShellEmitter.", "RubyEmitter.", "NixEmitter.",
        // The repositories' wrappers over YAMLEmitter and ShellEmitter, and PKGBUILD's `q` (bashQuoted).
        "RepositoryText.yamlQuoted(", "RepositoryText.bashQuoted(", "q(",
        // The repositories' own emitters, inside RepositoryText: XML text and attribute values
        // (escaped, control characters refused) and one-line deb822/ini values (a line break refused).
        "xml(", "singleLine(", "yamlQuoted(", "bashQuoted(",
        // The WiX source of an MSI (issue 60).
        "XMLEmitter.",
    ]

    static let constant = "a relctl constant"
    static let message = "diagnostic text, not generated text"
    static let checkedName = "a name the config loader checked against its grammar"
    static let notCode = "a file or asset name, not text of the generated language"
    static let packageName = "the package name, checked against Debian Policy 5.6.1's grammar"
    static let version = "the version LinuxPackageVersion checked and spelt for the format"
    static let maintainer = "`Name <email>` without a control character (PackageMetadata.problem(maintainer:))"
    static let oneLine = "refused with a control character when the config loads (PackageMetadata.problem(key:value:))"
    static let number = "a number or a hex digest relctl computed"
    static let path = "a path or file name in the repository's layout, not text of an index"
    static let field = "a field's value, then written through RepositoryText.singleLine (releaseFile/packagesStanza)"

    /// Per file: the interpolated expressions that are not values from outside, and why.
    static let allowed: [String: [String: String]] = [
        "Channels/HomebrewChannel.swift": [
            "name": "the checked formula name in the tap path (TapChannelName)",
            "release.project": "the tap commit message", "release.version": "the tap commit message",
        ],
        "Channels/NixChannel.swift": [
            "project": notCode, "tag": notCode,
            "release.project": "the flake description, then written by NixEmitter.string",
            "release.version": "the flake description, then written by NixEmitter.string",
            "release.tag": "the flake description, then written by NixEmitter.string",
        ],
        "Channels/ScoopChannel.swift": [
            "name": "the checked manifest name in the bucket path (TapChannelName)",
            "release.project": "the bucket commit message", "release.version": "the bucket commit message",
            "$0": "a binary name inside a JSON value JSONSerialization encodes",
            "release.config.checksum.algorithm.uppercased()": "a JSON value JSONSerialization encodes",
            "prefix": "a regular expression value JSONSerialization encodes",
        ],
        "Channels/TapChannel.swift": ["table": message],
        "Installer/InstallerScript.swift": ["triple.os": constant, "arch": constant],
        // The npm launcher's only variable part is one JSON object JSONSerialization writes, and
        // package.json is JSONEncoder's: neither interpolates a value.
        "Npm/NpmLauncher.swift": [:], "Npm/NpmPackageDocument.swift": [:],
        "CI/GitLabPipeline.swift": [
            "name": message, "index + 1": message, "label": message, "action.text": message, "path": message,
            "windowsTag": constant, "target.triple": checkedName, "message": message, "targets.count": message,
            "maximumNeeds": message, "stage": constant, "macOSTag": constant,
            "$0": "archive formats, and channel names (`[a-z0-9-]`, checked)", "SBOMBuilder.fileExtension": constant,
        ],
        "CI/ReleaseWorkflow.swift": [
            "how": constant, "index + 1": message, "action.text": checkedName, "label": message, "path": message,
            "owner": message, "repository": message, "path.map { \"/\\($0)\" } ?? \"\"": message,
            "cache.input": message,
            "cache.off": message, "job.rawValue": message, "target.triple": message, "target.runner": message,
            "CIRunners.coordinator": constant, "uploadArtifact": constant, "pinComment": constant,
            "$0": "archive formats and triples (checked names)", "SBOMBuilder.fileExtension": constant,
            "pattern": constant, "downloadArtifact": constant, "attestBuildProvenance": constant,
            "name": "channel names (`[a-z0-9-]`, checked)", "RpmSigningKey.variable": constant,
            "list": "triples (checked names) in a GitHub expression", "SigningKeys.sshKeyVariable": constant,
            "SigningKeys.minisignKeyVariable": constant, "SigningKeys.minisignPasswordVariable": constant,
            "checkout": constant, "secret": "a secret name, checked as an environment variable name",
            "setupPinComment": constant, "id": constant, "RepositoryBuilder.keyVariable": constant,
            "RelctlBuildRequirements.aptGetInstall": constant,
        ],
        "CI/RelctlBuildRequirements.swift": [
            "linux": constant, "sudo": constant, "aptPackages.joined(separator: \" \")": constant, "macOS": constant,
            "brewPackages.joined(separator: \" \")": constant, "$0.brew": constant,
            "kegOnly.joined(separator: \":\")": constant, "aptGetInstall": constant,
        ],
        "CI/CIToolchain.swift": [
            "target.triple": message, "target.runner": message, "target.arch": message,
            "RelctlBuildRequirements.aptGetInstall": constant,
        ],
        "Channels/AurChannel.swift": [
            "Self.folder": notCode, "release.version": "a git commit message or file name, not PKGBUILD text",
            "release.project": notCode, "arch": constant, "name": "the package name, checked against the AUR grammar",
            "try RepositoryText.singleLine(maintainer, field: \"maintainer\")":
                "a `#` comment line; singleLine refuses a line break",
            "try RepositoryText.singleLine(release.tag, field: \"tag\")":
                "a `#` comment line; singleLine refuses a line break",
            "sources.map { try q($0.arch) }.joined(separator: \" \")": "each word quoted by q (bashQuoted)",
            "source.arch": constant, "source.fileName": "a .SRCINFO value; srcinfoLine refuses a line break",
            "source.url": "a .SRCINFO value; srcinfoLine refuses a line break",
        ],
        "Channels/WingetChannel.swift": [
            "identifier.prefix(1).lowercased()":
                "a path in the fork, from the identifier checked against winget's grammar",
            "parts.joined(separator: \"/\")":
                "a path in the fork, from the identifier checked against winget's grammar",
            "version": notCode, "Self.folder": notCode,
            "Self.manifestFolder(identifier: identifier, version: release.version)": notCode, "name": notCode,
            "identifier": "a commit message or branch name; the identifier is checked against winget's grammar",
            "release.version": notCode, "manifestVersion": constant,
        ],
        "CI/ReleasePRWorkflow.swift": ["CIRunners.coordinator": "a relctl constant"],
        "CI/GitLabWorkspacePipeline.swift": [
            "stage": constant, "childPath": constant, "prebuilt": constant, "GitLabPipeline.macOSTag": constant,
            "GitLabPipeline.windowsTag": constant,
        ],
        // The WiX source wixl compiles, and the SQL msibuild runs on its database (issue 60).
        "WindowsInstaller/WixSource.swift": [
            "name": "the project name, written by XMLEmitter.attribute just above",
            "downgrade": "a message holding the project name, written by XMLEmitter.attribute just above",
            "programFiles": constant, "win64": constant, "Self.folderID": constant, "Self.componentID": constant,
            "index": number, "keyPath": constant,
            "productVersion": "MAJOR.MINOR.PATCH digits MSICodes.productVersion checked, in an SQL string",
            "upgradeCode": "a braced GUID MSICodes derived, in an SQL string", "Character(bad)": message,
        ],
        // METADATA and WHEEL: every header value goes through `header`, which refuses a control
        // character (a line break would start another field); RECORD's paths through csvField.
        "PythonWheels/WheelContents.swift": [
            "field": message, "String(bad.value, radix: 16, uppercase: true)": message,
        ],
        "CI/WorkspaceWorkflow.swift": [
            "CIRunners.coordinator": constant, "ReleaseWorkflow.uploadArtifact": constant,
            "ReleaseWorkflow.pinComment": constant, "ReleaseWorkflow.downloadArtifact": constant,
            "names": "a $GITHUB_OUTPUT line: JSONEncoder's one-line array of member names",
            "include": "a $GITHUB_OUTPUT line: JSONEncoder's one-line matrix",
            "!builds.isEmpty": "a $GITHUB_OUTPUT line: true or false",
        ],
        "Config/GeneratedFile.swift": [
            "$0": "a header line of relctl's own, below", "command": "a relctl constant",
            "shown": "the config's file name, quoted when a character could end the comment line",
        ],
        // deb control, copyright and changelog text, rpm header strings: every value from the
        // config was refused with a control character when the config loaded (issue 39, finding 7).
        "LinuxPackages/DebPackageWriter.swift": [
            "spec.name": packageName, "spec.version.debian": version, "spec.architecture.debian": constant,
            "spec.metadata.maintainer": maintainer, "installedSize": "a number relctl computed",
            "spec.depends.joined(separator: \", \")": oneLine, "spec.section": oneLine, "homepage": oneLine,
            "spec.metadata.summary": "the description's first line (line breaks split it; no other control character)",
            // The lintian overrides file (LintianOverrides).
            "$0.path.dropFirst()": "an install path, refused with a control character at load",
        ],
        "LinuxPackages/DebianChangelog.swift": [
            "spec.name": packageName, "spec.version.debian": version, "spec.metadata.maintainer": maintainer,
            "date(spec.mtime)": "a date relctl formats",
        ],
        "LinuxPackages/DebianCopyright.swift": [
            "spec.name": packageName, "metadata.maintainer": maintainer, "homepage": oneLine, "license": oneLine,
            "common": constant, "year": "a year relctl computes",
            "copyrightHolders(metadata, year: year(spec.mtime))":
                "the license file's own `Copyright` lines, one line each, or year and maintainer",
        ],
        "LinuxPackages/RpmPackageWriter.swift": [
            "spec.name": packageName, "spec.version.rpm": version, "spec.release": oneLine,
            "spec.architecture.rpm": constant, "nevr": "version and release, both checked",
            "isaSuffix(spec.architecture.rpm)": constant, "metadata.maintainer": maintainer,
        ],
        // APT and DNF repositories (issue 44): deb822 indexes, repodata XML, the .repo and
        // sources lines, .SRCINFO and winget YAML.
        "Repositories/AptRepository.swift": [
            "project": path, "name.prefix(1)": path, "name": path, "deb.lastPathComponent": path,
            "filename": "a pool path, written into Packages through singleLine (packagesStanza), else diagnostics",
            "suite": "a suite name the config loader checked (`[a-z0-9._-]`), in a path or a diagnostic",
            "architecture": constant, "folder": path, "origin": field, "key.fingerprintText": field,
        ],
        "Repositories/DnfRepository.swift": [
            "project": path, "name": path, "type": constant, "sha256": number,
        ],
        "Repositories/RepositoryText.swift": [
            "body":
                "the package's own control stanza as dpkg-deb wrote it into the .deb relctl built (one stanza, checked)",
            "size": number, "name": "a deb822 field name relctl writes (a constant of AptRepository)",
            "index.sha256": number,
            "String(repeating: \" \", count: max(0, 16 - size.count))": "padding relctl computes",
            "keyring": "checked above: no blank, no bracket, no line break (aptSourcesLine)",
            "url": "checked for blanks and brackets (aptSourcesLine), or a gpgkey URL checked for blanks (dnfRepoFile)",
            "suite": "checked above: no blank, no bracket, no line break (aptSourcesLine)",
            "String(scalar.value, radix: 16)": message, "flag": constant, "info.epoch": number,
            "type": constant, "try versionElement(info)": "an element whose values go through xml(",
            "time": number, "info.buildTime": number, "info.installedSize": number, "info.archiveSize": number,
            "info.headerStart": number, "info.headerEnd": number, "element": constant,
            "try entry(dependency)": "an element whose values go through xml(",
            "try fileElement(file, info: info)": "an element whose values go through xml(",
            "root.0": constant, "root.1": constant, "packages.count": number, "revision": number,
            "entry.sha256": number, "entry.openSHA256": number, "entry.size": number, "entry.openSize": number,
            "id": "a dnf repo id checked above against `[A-Za-z0-9._-]`", "packagesSigned ? 1 : 0": constant,
            "keys.joined(separator: \" \")": "gpgkey URLs, each checked above for blanks",
            "indent ? \"\\t\" : \"\"": constant, "key": "a key name relctl writes (.SRCINFO, winget)",
            "schema": constant, "AptRepository.keyringName(project: project)": path,
            "project": "the project name the config loader checked, in Markdown prose of the notes",
            "DnfRepository.keyName(project: project)": path,
            "RepositoryBuilder.rpmKeyName(project: project)": path,
        ],
        "CI/RelctlInstallMode+Pipelines.swift": [
            "runner": constant, "triple": constant, "target.triple": message, "target.runner": message,
            "publishedTargets.map(\\.triple).joined(separator: \" and \")": message,
        ],
    ]

    /// Files of CI/ that write no text of another language, and why. Every other file there is a
    /// generator and must be in `allowed`, so a new generator is scanned the day it is added.
    static let notGenerators: [String: String] = [
        "CIError.swift": "errors", "CIProvider+Pipelines.swift": "dispatches to the generators",
        "SystemLibrary.swift": "a model", "TagGlob.swift": "models (the tag filters: GitHub's glob, GitLab's regex)",
        "WorkflowWriter.swift":
            "writes the text the generators made; its WorkflowOutcome is a model and YAMLLines the line builder over YAMLEmitter",
    ]

    /// Files of Repositories/ that write no index or snippet text, and why.
    static let notRepositoryWriters: [String: String] = [
        "DebControlReader.swift": "a reader; its text is diagnostics",
        "OpenPGPSecretKey.swift": "binary OpenPGP packets",
        "RemoteRepository.swift": "a reader; it keeps the signed indexes it fetched byte for byte, and writes no text",
        "RepositoryBuilder.swift": "runs the writers; its text is diagnostics and reports",
        "RepositoryError.swift": "errors",
        "RepositoryVerifier.swift": "a reader; its text is diagnostics", "RpmHeaderReader.swift": "a reader",
    ]

    @Test func everyRepositoriesFileIsScannedOrSaysWhyNot() throws {
        let (unaccounted, stale) = try Self.accounting(area: "Repositories", notWriters: Self.notRepositoryWriters)
        #expect(unaccounted == [], "add these files to `allowed` (a writer) or `notRepositoryWriters` (why not)")
        #expect(stale == [], "listed files that no longer exist")
    }

    /// Files of LinuxPackages/ that write no text of another language, and why.
    static let notPackageWriters: [String: String] = [
        "CpioStream.swift": "binary cpio framing", "ELFFile.swift": "a reader",
        "LinuxPackageBuilder.swift": "reads inputs and runs the writers; its text is diagnostics",
        "LinuxPackageError.swift": "errors", "LinuxPackageFiles.swift": "a model",
        "LinuxPackageFormat.swift": "a protocol and its registry, the spec it writes, the architectures (models)",
        "LinuxPackageVersion.swift": "checks and spells versions", "PackageMetadata.swift": "checks values",
        "PackageFileWriter.swift": "writes bytes (files, framing) in 1 MiB writes; its text is diagnostics",
        "PackagedFile.swift": "a model", "RpmHeader.swift": "binary header framing (its strings come from the writer)",
        "RpmSigningKey.swift": "reads a key", "TarStream.swift": "binary tar framing",
    ]

    @Test func everyLinuxPackagesFileIsScannedOrSaysWhyNot() throws {
        let (unaccounted, stale) = try Self.accounting(area: "LinuxPackages", notWriters: Self.notPackageWriters)
        #expect(unaccounted == [], "add these files to `allowed` (a writer) or `notPackageWriters` (why not)")
        #expect(stale == [], "listed files that no longer exist")
    }

    /// Files of PythonWheels/ that write no text of another language, and why.
    static let notWheelWriters: [String: String] = [
        "ELFVersionNeeds.swift": "a reader", "PythonWheelError.swift": "errors",
        "PythonWheelBuilder.swift": "reads inputs and runs the writers; its text is diagnostics and reports",
        "WheelName.swift": "names and tags: file names (PEP 427) and diagnostics, not text of a file's content",
    ]

    @Test func everyPythonWheelsFileIsScannedOrSaysWhyNot() throws {
        let (unaccounted, stale) = try Self.accounting(area: "PythonWheels", notWriters: Self.notWheelWriters)
        #expect(unaccounted == [], "add these files to `allowed` (a writer) or `notWheelWriters` (why not)")
        #expect(stale == [], "listed files that no longer exist")
    }

    @Test func everyCIFileIsScannedOrSaysWhyNot() throws {
        let (unaccounted, stale) = try Self.accounting(area: "CI", notWriters: Self.notGenerators)
        #expect(unaccounted == [], "add these files to `allowed` (a writer) or `notGenerators` (why not)")
        #expect(stale == [], "listed files that no longer exist")
    }

    /// The folder of an area (`CI`, `Channels`, …): the domain layer that holds it.
    static func areaFolder(_ area: String) -> URL {
        let layers = ["RelctlModel", "RelctlArtifacts", "RelctlChanges", "RelctlDistribution", "RelctlProject"]
        let folders = layers.map { root.appendingPathComponent("Sources/\($0)/\(area)") }
        return folders.first { FileManager.default.fileExists(atPath: $0.path) } ?? folders[0]
    }

    /// The Swift files of `Sources/<layer>/AREA` neither scanned (in `allowed`) nor listed in
    /// `notWriters`, and the listed files that no longer exist, both sorted.
    static func accounting(
        area: String, notWriters: [String: String]
    ) throws -> (unaccounted: [String], stale: [String]) {
        let folder = areaFolder(area)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        let prefix = area + "/"
        let scanned = Set(allowed.keys.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) })
        return (
            Set(files).subtracting(scanned).subtracting(notWriters.keys).sorted(),
            Set(notWriters.keys).subtracting(files).sorted()
        )
    }

    /// Every `\(…)` in `text`: its line and expression (parentheses balanced).
    static func interpolations(in text: String) -> [(line: Int, expression: String)] {
        let characters = Array(text)
        var found: [(Int, String)] = []
        var line = 1
        var index = 0
        while index < characters.count {
            if characters[index] == "\n" { line += 1 }
            guard characters[index] == "\\", index + 1 < characters.count, characters[index + 1] == "(" else {
                index += 1
                continue
            }
            var end = index + 2
            var depth = 1
            while end < characters.count, depth > 0 {
                if characters[end] == "(" { depth += 1 }
                if characters[end] == ")" { depth -= 1 }
                end += 1
            }
            found.append((line, String(characters[(index + 2)..<(end - 1)])))
            index = end
        }
        return found
    }

    static func isEmitterCall(_ expression: String) -> Bool {
        var text = Substring(expression.trimmingCharacters(in: .whitespaces))
        if text.hasPrefix("try ") { text = text.dropFirst(4) }
        return emitters.contains { text.hasPrefix($0) }
    }

    @Test("every interpolation in a generator is an emitter call or a listed, reasoned exception")
    func interpolationsGoThroughEmitters() throws {
        var problems: [String] = []
        for (file, reasons) in Self.allowed.sorted(by: { $0.key < $1.key }) {
            let area = String(file.split(separator: "/")[0])
            let url = Self.areaFolder(area).deletingLastPathComponent().appendingPathComponent(file)
            let text = try String(contentsOf: url, encoding: .utf8)
            var used = Set<String>()
            for (line, expression) in Self.interpolations(in: text) where !Self.isEmitterCall(expression) {
                if reasons[expression] != nil {
                    used.insert(expression)
                } else {
                    problems.append(
                        "\(file):\(line): `\\(\(expression))` builds generated text by interpolation; write the value through its language's emitter"
                    )
                }
            }
            for stale in Set(reasons.keys).subtracting(used).sorted() {
                problems.append("\(file): the exception for `\(stale)` no longer matches anything; remove it")
            }
            let concatenation = try Regex(
                #"("\s*\+\s*(release|config|settings|manifest|target|step|setupStep|archive|entry)\.[A-Za-z.]+)|((release|config|settings|manifest|target|step|setupStep|archive|entry)\.[A-Za-z.]+\s*\+\s*")"#
            )
            for (number, lineText) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where lineText.contains(concatenation) {
                problems.append(
                    "\(file):\(number + 1): a value from the config or release is concatenated into generated text; use an emitter"
                )
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("the scan finds a pasted value (the Homebrew class line as round 3 wrote it)")
    func theScanSeesThePattern() throws {
        let old = #"            "class \(className(release.project)) < Formula","# + "\n"
        #expect(Self.interpolations(in: old).map(\.expression) == ["className(release.project)"])
        #expect(!Self.isEmitterCall("className(release.project)"))
        #expect(Self.isEmitterCall("try ShellEmitter.word(target.triple)"))
    }
}
