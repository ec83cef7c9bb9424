import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlDistribution

/// Publishes a release into a folder (a file server's document root, a mounted share):
/// `[publish] mirror = "/srv/releases"` puts this tag's files in `/srv/releases/<tag>/`.
///
/// It keeps the promises relctl's own forges keep: only the release's own files are copied
/// (never whatever else lies in `dist/`), a file already there with the same bytes is left
/// alone, one with other bytes is an error unless `--replace` is given, each file appears
/// whole or not at all (a temporary, then a rename), and running it again finishes the job.
struct MirrorPublisher: Publisher {
    static let id = "mirror"
    var id: String { Self.id }

    func preflight(_ request: PublishRequest, context: Context) throws {
        _ = try root(request, context: context)
    }

    func publish(_ request: PublishRequest, context: Context) async throws -> PublishReport {
        let folder = try root(request, context: context).appendingPathComponent(request.tag)
        let plan = try compare(request, in: folder)
        let manager = FileManager.default
        let created = !manager.fileExists(atPath: folder.path)
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            for asset in plan.toCopy {
                let temporary = folder.appendingPathComponent(".\(asset.name).mirror-tmp")
                try? manager.removeItem(at: temporary)
                try manager.copyItem(at: asset.fileURL, to: temporary)
                // rename(2) replaces in one step: a reader sees the old file or the new one.
                guard rename(temporary.path, folder.appendingPathComponent(asset.name).path) == 0 else {
                    let reason = String(cString: strerror(errno))
                    try? manager.removeItem(at: temporary)
                    throw MirrorError.cannotWrite(path: folder.appendingPathComponent(asset.name).path, reason: reason)
                }
                context.console.detail("mirror: \(asset.name)")
            }
        } catch let error as MirrorError {
            throw error
        } catch {
            throw MirrorError.cannotWrite(path: folder.path, reason: "\(error.localizedDescription)")
        }
        let outcome: PublishReport.Outcome =
            created ? .published : plan.toCopy.isEmpty ? .alreadyPublished : .updated
        return report(request, folder: folder, outcome: outcome, created: created, plan: plan)
    }

    func rehearse(_ request: PublishRequest, context: Context) async throws -> PublishReport {
        let folder = try root(request, context: context).appendingPathComponent(request.tag)
        let plan = try compare(request, in: folder)
        return report(request, folder: folder, outcome: .rehearsed, created: false, plan: plan)
    }

    /// The configured folder, which must exist: a typo should not create a tree somewhere.
    private func root(_ request: PublishRequest, context: Context) throws -> URL {
        guard let setting = request.extensionSettings[Self.id], !setting.isEmpty else {
            throw MirrorError.notConfigured
        }
        let url = context.resolve(setting)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw MirrorError.missingFolder(path: url.path)
        }
        return url
    }

    private struct Plan {
        var toCopy: [Artifact] = []
        var unchanged: [String] = []
        var replaced: [String] = []
    }

    /// What is there already, by SHA-256; a differing file stops everything before the first copy.
    private func compare(_ request: PublishRequest, in folder: URL) throws -> Plan {
        var plan = Plan()
        var differing: [String] = []
        for asset in request.assets.assets {
            let existing = folder.appendingPathComponent(asset.name)
            guard FileManager.default.fileExists(atPath: existing.path) else {
                plan.toCopy.append(asset)
                continue
            }
            if try FileHasher.sha256(of: existing) == asset.sha256 {
                plan.unchanged.append(asset.name)
            } else if request.replace {
                plan.toCopy.append(asset)
                plan.replaced.append(asset.name)
            } else {
                differing.append(asset.name)
            }
        }
        if !differing.isEmpty { throw MirrorError.differs(folder: folder.path, names: differing) }
        return plan
    }

    private func report(
        _ request: PublishRequest, folder: URL, outcome: PublishReport.Outcome, created: Bool, plan: Plan
    ) -> PublishReport {
        PublishReport(
            publisher: Self.id, repository: folder.deletingLastPathComponent().path, tag: request.tag, releaseID: 0,
            url: folder.absoluteString, outcome: outcome, created: created,
            prerelease: request.version.isPrerelease, latest: nil,
            uploaded: plan.toCopy.map(\.name).filter { !plan.replaced.contains($0) }, unchanged: plan.unchanged,
            replaced: plan.replaced, repaired: [])
    }
}

enum MirrorError: RelctlError {
    case notConfigured
    case missingFolder(path: String)
    case differs(folder: String, names: [String])
    case cannotWrite(path: String, reason: String)

    var exitCode: RelctlExitCode {
        switch self {
        case .notConfigured, .missingFolder: return .badInput
        case .differs, .cannotWrite: return .failure
        }
    }

    var diagnostics: [Diagnostic] {
        switch self {
        case .notConfigured:
            return [
                Diagnostic(
                    "`--forge mirror` needs a folder: add `mirror = \"/srv/releases\"` under [publish] in relctl.toml")
            ]
        case .missingFolder(let path):
            return [
                Diagnostic(
                    file: path, "the [publish] mirror folder does not exist; create it, or fix `mirror` in relctl.toml")
            ]
        case .differs(let folder, let names):
            return [
                Diagnostic(
                    file: folder,
                    "already holds \(names.joined(separator: ", ")) with other bytes; nothing was copied. Publish with --replace to overwrite them"
                )
            ]
        case .cannotWrite(let path, let reason):
            return [Diagnostic(file: path, "cannot write the mirror's copy: \(reason)")]
        }
    }
}
