import Foundation
import RelctlBasics

/// Makes the in-toto statement of a release: subjects from the checksum file (exactly its
/// entries), the SLSA predicate from the inputs and, for the run, the builder the environment
/// shows (a GitHub Actions workflow run, or relctl on a maintainer's machine).
package enum ProvenanceBuilder {
    package static func statement(
        sums: ChecksumFile, inputs: ProvenanceInputs, environment: [String: String]
    ) -> ProvenanceStatement {
        let subjects = sums.entries.map {
            ProvenanceStatement.Subject(name: $0.name, digest: [$0.algorithm.rawValue: $0.digest])
        }
        let github = GitHubRun(environment: environment)
        // SLSA's source dependency names the repository: the workflow's, else the remote's (or the
        // forge repository relctl publishes to), else GitLab CI's project.
        let repository =
            github?.repositoryURL ?? inputs.repositoryURL.map(sanitized)
            ?? environment["CI_PROJECT_URL"].flatMap { $0.isEmpty ? nil : sanitized($0) }
        let source = SLSAProvenance.ResourceDescriptor(
            uri: repository.map { "git+\($0)@refs/tags/\(inputs.tag)" }, name: nil,
            digest: ["gitCommit": inputs.commit])
        let time = timestamp(inputs.sourceDateEpoch)
        let predicate = SLSAProvenance(
            buildDefinition: .init(
                buildType: SLSAProvenance.buildType,
                externalParameters: .init(
                    project: inputs.project, tag: inputs.tag, version: inputs.version, targets: inputs.targets,
                    config: .init(uri: nil, name: inputs.configPath, digest: ["sha256": inputs.configSHA256])),
                internalParameters: .init(sourceDateEpoch: inputs.sourceDateEpoch),
                resolvedDependencies: [source]),
            runDetails: .init(
                builder: .init(
                    id: github?.builderID ?? "\(RelctlVersion.repository)@v\(RelctlVersion.version)",
                    version: ["relctl": RelctlVersion.version]),
                metadata: .init(invocationId: github?.invocationID, startedOn: time, finishedOn: time)))
        return ProvenanceStatement(subject: subjects, predicate: predicate)
    }

    /// RFC 3339 in UTC (`2023-11-14T22:13:20Z`), as SLSA's timestamps are written.
    package static func timestamp(_ seconds: Int) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// A remote URL without user, password, query or fragment (a token in an https remote must
    /// not end up in a published file); scp-like `git@host:path` becomes `ssh://git@host/path`.
    package static func sanitized(_ url: String) -> String {
        // A remote that is a folder on this machine is a `file://` URI, as git itself reads it.
        if url.hasPrefix("/") {
            return "file://" + (url.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? url)
        }
        if !url.contains("://"), let colon = url.firstIndex(of: ":"), !url[..<colon].contains("/") {
            let host = url[..<colon].split(separator: "@").last.map(String.init) ?? ""
            return "ssh://\(host)/\(url[url.index(after: colon)...])"
        }
        guard var components = URLComponents(string: url) else { return url }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        return components.string ?? url
    }

    /// A GitHub Actions run, from the variables the runner sets (docs.github.com, "Variables":
    /// default environment variables).
    package struct GitHubRun {
        package var server: String
        package var repository: String
        package var workflowRef: String
        package var runID: String
        package var attempt: String

        package init?(environment: [String: String]) {
            guard environment["GITHUB_ACTIONS"] == "true", let repository = environment["GITHUB_REPOSITORY"],
                let workflowRef = environment["GITHUB_WORKFLOW_REF"], let runID = environment["GITHUB_RUN_ID"]
            else { return nil }
            server = environment["GITHUB_SERVER_URL"] ?? "https://github.com"
            self.repository = repository
            self.workflowRef = workflowRef
            self.runID = runID
            attempt = environment["GITHUB_RUN_ATTEMPT"] ?? "1"
        }

        package var repositoryURL: String { "\(server)/\(repository)" }
        /// The workflow file at the ref that ran it: `https://github.com/o/r/.github/workflows/release.yml@refs/tags/v1`.
        package var builderID: String { "\(server)/\(workflowRef)" }
        package var invocationID: String { "\(server)/\(repository)/actions/runs/\(runID)/attempts/\(attempt)" }
    }
}

/// What a release's provenance says about it, gathered by the release stage (from the identity
/// held in memory) or by `relctl sign` in CI (from `manifest.json` and git); the same inputs give
/// the same statement.
package struct ProvenanceInputs: Sendable, Equatable {
    package var project: String
    package var tag: String
    package var version: String
    package var commit: String
    /// SOURCE_DATE_EPOCH or the commit time: the run's times, so the statement is reproducible.
    package var sourceDateEpoch: Int
    /// Target triples of the archives, sorted, unique.
    package var targets: [String]
    /// `relctl.toml` relative to the project root, and its SHA-256 (hex).
    package var configPath: String
    package var configSHA256: String
    /// The repository's URL (credentials removed), for the source's `git+URL@refs/tags/TAG`.
    package var repositoryURL: String?
}
