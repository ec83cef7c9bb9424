import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// `relctl repository --publish` (and `release --publish`): `dist/apt` and `dist/dnf` committed to
/// `[repository] branch` of the project's remote (`[release] remote`), under `folder`, each
/// replacing the folder there whole; pushed like a Homebrew tap, a no-op when nothing changed.
/// The branch is a static site (GitHub, GitLab or Gitea Pages) users add as their source.
package struct RepositoryPublisher {
    package let context: Context

    package init(context: Context) { self.context = context }

    /// Publishes the repositories in `dist`; returns the remote's URL when something was pushed.
    /// - Parameters:
    ///   - time: the release's time: the commit is dated like the release.
    ///   - projectRoot: the repository whose remote is meant (a dry run's scratch clone has
    ///     the project as its `origin`); default: the config's root.
    package func publish(
        config: RelctlConfig, dist: URL, tag: String, time: Int, dryRun: Bool, projectRoot: URL? = nil
    ) async throws -> [String] {
        let settings = config.repositories
        guard let branch = settings.branch else {
            throw RepositoryError.badInput(
                path: config.path,
                reason:
                    "has no `[repository] branch` to publish to: set `branch = \"gh-pages\"` (the branch of the project's remote that serves the repository)"
            )
        }
        let remote = config.release.remote
        guard let url = await Git(directory: projectRoot ?? config.root, context: context).configuredRemoteURL(remote)
        else {
            throw RepositoryError.badInput(
                path: (projectRoot ?? config.root).path,
                reason:
                    "git remote `\(remote)` has no URL to publish branch `\(branch)` to; add it (`git remote add \(remote) URL`) or set `[release] remote`"
            )
        }
        let prefix = settings.folder.map { "\($0)/" } ?? ""
        var trees: [String: URL] = [:]
        for (enabled, name) in [
            (settings.aptSuite != nil, RepositoryBuilder.aptFolder), (settings.dnf, RepositoryBuilder.dnfFolder),
        ]
        where enabled {
            let folder = dist.appendingPathComponent(name)
            guard FileSystem.isDirectory(folder) else {
                throw RepositoryError.badInput(
                    path: folder.path, reason: "missing: write it first with `relctl repository --tag \(tag)`")
            }
            trees[prefix + name] = folder
        }
        let place = "branch `\(branch)` of \(url)"
        return try await TapRepository(channel: "repository", url: url, context: context).publish(
            files: [:], trees: trees, message: "repository: \(tag)", time: time, dryRun: dryRun, branch: branch,
            newBranch: .orphan,
            check: { clone in
                for (path, folder) in trees {
                    try Self.keepsEveryPackage(
                        published: clone.appendingPathComponent(path), new: folder, path: path, where: place)
                }
            })
    }

    /// Refuses a new repository that lacks a package the published one holds: without
    /// `[repository] previous` the new one lists this release's packages only, and publishing it
    /// would take older versions away from users.
    package static func keepsEveryPackage(published: URL, new: URL, path: String, where place: String) throws {
        for folder in ["pool", "Packages"] {
            for file in try files(under: published.appendingPathComponent(folder), relative: folder)
            where FileSystem.kind(of: new.appendingPathComponent(file)) != .file {
                throw RepositoryError.mismatch(
                    path: "\(path)/\(file)",
                    reason:
                        "\(place) holds this package but the new repository does not: set `[repository] previous` to a checkout of that branch\(path.contains("/") ? " (its folder holding apt/ and dnf/)" : "") so the new repository keeps every published package"
                )
            }
        }
    }

    /// The files under `folder` (none when it does not exist), as paths under `relative`. Links
    /// are never followed: the branch is content from outside.
    private static func files(under folder: URL, relative: String) throws -> [String] {
        guard FileSystem.statusIfPresent(atPath: folder.path, followingLinks: false)?.kind == .directory else {
            return []
        }
        var found: [String] = []
        for name in try FileSystem.names(in: folder).sorted() {
            let url = folder.appendingPathComponent(name)
            switch FileSystem.statusIfPresent(atPath: url.path, followingLinks: false)?.kind {
            case .directory: found += try files(under: url, relative: "\(relative)/\(name)")
            case nil: continue
            default: found.append("\(relative)/\(name)")
            }
        }
        return found
    }
}
