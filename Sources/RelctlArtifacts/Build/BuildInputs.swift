import Foundation
import RelctlBasics
import RelctlModel

/// What every build of one release shares: the tag, its version, the commit and the reproducible clock.
package struct BuildInputs: Sendable, Equatable {
    package var tag: String
    package var version: String
    /// The full hash of HEAD, or empty outside a git repository.
    package var commit: String
    /// `SOURCE_DATE_EPOCH` from the environment when set, else HEAD's committer time; nil without either.
    package var sourceDateEpoch: String?

    package init(tag: String, version: String, commit: String, sourceDateEpoch: String?) {
        self.tag = tag
        self.version = version
        self.commit = commit
        self.sourceDateEpoch = sourceDateEpoch
    }

    /// Resolves the inputs: `tag` if given (checked against the tag format), else the version of the
    /// first `[[version]]` manifest spelled with the tag format. Bad input is exit 2.
    package static func resolve(tag: String?, config: RelctlConfig, context: Context) async throws -> BuildInputs {
        let format = config.project.tagFormat
        let resolvedTag: String
        if let tag {
            resolvedTag = tag
        } else {
            guard let source = config.versions.first else {
                throw BuildError.noVersionSource(
                    config: config.path, example: format.tag(for: SemanticVersion(major: 1, minor: 0, patch: 0)))
            }
            let found = try ManifestReaders.read(source, root: config.root)
            let version: SemanticVersion
            do { version = try SemanticVersion(parsing: found.text) } catch {
                throw BuildError.versionNotSemVer(path: found.foundIn, line: found.line, version: found.text)
            }
            resolvedTag = format.tag(for: version)
        }
        let version = try format.version(of: resolvedTag)
        let git = Git(directory: config.root, context: context)
        // Building needs no git: without it (or outside a repository) RELCTL_COMMIT is empty.
        var commit = ""
        if (try? await git.isRepository()) == true { commit = (try? await git.commit(of: "HEAD")) ?? "" }
        var epoch = try SourceDateEpoch.from(context.environment)
        if epoch == nil, !commit.isEmpty { epoch = try? await git.committerTime(of: commit) }
        return BuildInputs(
            tag: resolvedTag, version: version.description, commit: commit, sourceDateEpoch: epoch.map(String.init))
    }
}

extension ReleaseIdentity {
    /// What the build commands see, without asking git again.
    package var buildInputs: BuildInputs {
        BuildInputs(tag: tag, version: version.description, commit: commit, sourceDateEpoch: String(sourceDateEpoch))
    }
}
