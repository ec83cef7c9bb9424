import Crypto
import Foundation
import RelctlBasics
import RelctlModel

/// `[windows] msi = true`: one MSI per Windows target (x64 and x86; wixl 0.101 writes no arm64
/// package), named like the target's archive with `.msi` (`velostream-v1.0.0-x86_64-pc-windows-msvc.msi`),
/// installing the target's binaries under `ProgramFiles64Folder\{project}` and putting that folder
/// on the system PATH. wixl compiles the WiX source relctl writes, msibuild adds the PATH entry and
/// same-version upgrades, and relctl pins the summary information's times and package code, so
/// the same inputs give the same bytes; with a Windows signing key the pinned MSI is then signed.
public struct MSIBuilder: Sendable {
    package var context: Context

    package init(context: Context) { self.context = context }

    /// The extension of the installers.
    package static let fileExtension = ".msi"

    /// The targets among `targets` that get an MSI, with wixl's architecture for each.
    package static func targets(_ targets: [Target]) -> [(target: Target, architecture: String)] {
        targets.compactMap { target in MSITools.architecture(of: target).map { (target, $0) } }
    }

    /// The Windows targets wixl cannot package (arm64), which get no MSI.
    package static func skipped(_ targets: [Target]) -> [Target] {
        targets.filter { $0.os == "windows" && MSITools.architecture(of: $0) == nil }
    }

    /// The MSI's file name: the target's archive name (`[archive] name` or `[[target]] name`) + `.msi`.
    package static func fileName(config: RelctlConfig, names: ReleaseNames, target: Target) -> String {
        config.archiveName(for: target).render(names.placeholders(for: target)) + fileExtension
    }

    /// Every MSI this release writes (empty without `msi = true`).
    package static func fileNames(config: RelctlConfig, names: ReleaseNames, targets: [Target]) -> [String] {
        guard config.windows.msi else { return [] }
        return Self.targets(targets).map { fileName(config: config, names: names, target: $0.target) }
    }

    /// For `relctl check` and the preflight: missing tools, names an MSI cannot hold, a version
    /// that is no ProductVersion.
    package static func problems(config: RelctlConfig, version: String?, environment: [String: String]) -> [Diagnostic]
    {
        guard config.windows.msi else { return [] }
        var problems = MSITools.missing(config.windows, environment: environment).flatMap(\.diagnostics).map {
            Diagnostic(file: config.path, line: config.windows.line, $0.message)
        }
        for (what, value) in [("project.name", config.project.name)] + config.build.binaries.map({ ("binary", $0) }) {
            if let problem = WixSource.problem(inName: value) {
                problems.append(
                    Diagnostic(
                        file: config.path, line: config.windows.line,
                        MSIError.badName(what: what, value: value, reason: problem).message))
            }
        }
        if let version, let problem = MSICodes.productVersion(version).problem {
            problems.append(
                Diagnostic(
                    file: config.path, line: config.windows.line,
                    MSIError.badVersion(version: version, reason: problem).message))
        }
        return problems
    }

    /// Writes each Windows target's MSI into `directory`, atomically, in target order.
    /// - Parameters:
    ///   - binaryRoot: prebuilt binaries, as for `relctl package`.
    ///   - signer: signs each MSI once it is pinned; nil leaves it unsigned.
    ///   - executableSigner: Authenticode-signs each `.exe` before it goes in, as the archives' are
    ///     (without a timestamp the same bytes as the zip's); nil installs them as built.
    package func write(
        config: RelctlConfig, inputs: PackagingInputs, targets: [Target], into directory: URL,
        binaryRoot: URL? = nil, signer: (any MSISigning)? = nil, executableSigner: AuthenticodeSigner? = nil
    ) async throws -> [Artifact] {
        if let error = MSITools.missing(config.windows, environment: context.environment).first { throw error }
        let (productVersion, problem) = MSICodes.productVersion(inputs.version)
        guard let productVersion else {
            throw MSIError.badVersion(version: inputs.version, reason: problem ?? "is not MAJOR.MINOR.PATCH")
        }
        for (what, value) in [("project.name", config.project.name)] + config.build.binaries.map({ ("binary", $0) }) {
            if let problem = WixSource.problem(inName: value) {
                throw MSIError.badName(what: what, value: value, reason: problem)
            }
        }
        let names = ReleaseNames(project: config.project.name, version: inputs.version, tag: inputs.tag)
        var written: [Artifact] = []
        for (target, architecture) in Self.targets(targets) {
            let name = Self.fileName(config: config, names: names, target: target)
            let artifact = try await writeOne(
                name: name, config: config, inputs: inputs, productVersion: productVersion, target: target,
                architecture: architecture, into: directory, binaryRoot: binaryRoot, signer: signer,
                executableSigner: executableSigner)
            context.console.info("packaged \(artifact.name): \(ByteCount.format(artifact.size))")
            written.append(artifact)
        }
        return written
    }

    private func writeOne(
        name: String, config: RelctlConfig, inputs: PackagingInputs, productVersion: String, target: Target,
        architecture: String, into directory: URL, binaryRoot: URL?, signer: (any MSISigning)?,
        executableSigner: AuthenticodeSigner?
    ) async throws -> Artifact {
        let stage = Temporaries.scratchURL("msi")
        try FileSystem.createDirectory(stage)
        defer { try? FileSystem.remove(stage) }
        // The binaries, copied with the release's time: wixl writes each file's time into the cabinet.
        var files: [WixSource.File] = []
        try FileSystem.createDirectory(stage.appendingPathComponent("files"))
        for (index, source) in try binaries(config: config, target: target, binaryRoot: binaryRoot).enumerated() {
            let staged = "files/\(index)-\(source.lastPathComponent)"
            try FileSystem.copy(source, to: stage.appendingPathComponent(staged))
            if let executableSigner, source.lastPathComponent.lowercased().hasSuffix(".exe") {
                try await executableSigner.signFile(
                    stage.appendingPathComponent(staged), shown: source.path, target: target.triple)
            }
            try FileSystem.setModificationTime(stage.appendingPathComponent(staged), seconds: inputs.mtime)
            files.append(WixSource.File(name: source.lastPathComponent, source: staged))
        }
        let project = config.project.name
        let wix = WixSource(
            project: project, manufacturer: Self.manufacturer(config), productVersion: productVersion,
            upgradeCode: MSICodes.upgradeCode(project: project),
            productCode: MSICodes.productCode(project: project, version: inputs.version, target: target.triple),
            packageCode: MSICodes.packageCode(
                project: project, version: inputs.version, target: target.triple, commit: inputs.commit),
            componentCode: MSICodes.componentCode(project: project, target: target.triple),
            architecture: architecture, files: files)
        try AtomicFile.write(try wix.render(), to: stage.appendingPathComponent("product.wxs"))
        let built = stage.appendingPathComponent("product.msi")
        try await MSITools.run(
            MSITools.wixl, ["-a", architecture, "-o", built.path, "product.wxs"], in: stage, context: context)
        try await MSITools.run(
            MSITools.msibuild, [built.path] + wix.databaseQueries().flatMap { ["-q", $0] }, in: stage,
            context: context)
        guard let unpinned = FileSystem.contents(of: built) else {
            throw MSIError.unpinnable(path: built.path, reason: "wixl wrote no file")
        }
        var bytes: Data
        do {
            bytes = try CompoundFileSummary.pinned(unpinned, epoch: inputs.mtime, revision: wix.packageCode)
        } catch let problem as CompoundFileSummary.Problem {
            throw MSIError.unpinnable(path: built.path, reason: problem.description)
        }
        if let signer {
            let unsigned = stage.appendingPathComponent("unsigned.msi")
            let signed = stage.appendingPathComponent("signed.msi")
            try AtomicFile.write(bytes, to: unsigned)
            try await signer.sign(unsigned, to: signed, context: context)
            guard let data = FileSystem.contents(of: signed) else {
                throw MSIError.toolFailed(tool: MSITools.osslsigncode, status: 0, output: "wrote no signed MSI")
            }
            bytes = data
        }
        let url = directory.appendingPathComponent(name)
        try AtomicFile.write(bytes, to: url)
        return Artifact(
            name: name, kind: .msi, target: target.triple, format: "msi", size: Int64(bytes.count),
            sha256: FileHasher.hex(SHA256.hash(data: bytes)), sha512: FileHasher.hex(SHA512.hash(data: bytes)),
            path: url.path, producedBy: .msi)
    }

    /// The maintainer's name without the address (`Ada <ada@example.org>` → `Ada`), else the project.
    static func manufacturer(_ config: RelctlConfig) -> String {
        guard let maintainer = config.project.metadata.maintainer else { return config.project.name }
        let name = maintainer.split(separator: "<", maxSplits: 1)[0].trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? config.project.name : name
    }

    /// Each configured binary the build made for the target (an optional one may be missing).
    private func binaries(config: RelctlConfig, target: Target, binaryRoot: URL?) throws -> [URL] {
        let (folder, binaries) = ArchiveLayout.builtBinaries(config: config, target: target, override: binaryRoot)
        var found: [URL] = []
        for binary in binaries {
            guard binary.exists else {
                if binary.optional { continue }
                throw MSIError.missingBinary(binary: binary.fileName, path: binary.source.path, target: target.triple)
            }
            found.append(binary.source)
        }
        guard !found.isEmpty else {
            throw MSIError.missingBinary(binary: "(any)", path: folder, target: target.triple)
        }
        return found
    }
}
