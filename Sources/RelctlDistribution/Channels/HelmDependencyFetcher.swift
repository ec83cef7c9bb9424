import Crypto
import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// Completes a chart with its dependencies before it is packaged, as `helm dependency build` and
/// then `helm package` would: a dependency already under `charts/` (a folder or a `.tgz`) is
/// taken as it is; a missing one is fetched from its `repository` at the version `Chart.lock`
/// pins (or the exact version Chart.yaml names when there is no lock): an http(s) chart
/// repository through its `index.yaml`, an `oci://` registry through the images' registry client,
/// or a `file://` folder inside the project. `Chart.lock`'s digest must match Chart.yaml's
/// dependencies (Helm's rule), each archive must have the digest its index or manifest names, and
/// its Chart.yaml the name and version asked for. A chart is never packaged without all of them.
package struct HelmDependencyFetcher: Sendable {
    package var context: Context
    /// The project: a `file://` dependency must be inside it.
    package var root: URL
    /// `[[chart]] path` as written, relative to `root`.
    package var chartPath: String

    /// The most bytes of a repository's `index.yaml` read (large public repositories hold some
    /// tens of MiB).
    package static let indexLimit: Int64 = 64 << 20
    /// The most bytes of one chart archive downloaded.
    package static let archiveLimit = Int64(HelmChartPackage.maximumChartSize)
    /// The layer media type Helm before 3.8 pushed, which Helm still pulls.
    package static let legacyLayerMediaType = "application/tar+gzip"

    package init(context: Context, root: URL, chartPath: String) {
        self.context = context
        self.root = root
        self.chartPath = chartPath
    }

    /// `chart` with every declared dependency among its subcharts.
    package func complete(_ chart: HelmChartPackage) async throws -> HelmChartPackage {
        let dependencies = chart.dependencies
        guard !dependencies.declared.isEmpty else { return chart }
        try checkLock(dependencies)
        let lockShown = self.lockShown
        var completed = chart
        var problems: [HelmDependencyError.Problem] = []
        for (index, dependency) in dependencies.declared.enumerated() {
            let locked = dependencies.locked(dependency, at: index)
            if dependencies.lock != nil, locked == nil {
                problems.append(.init(dependency: dependency, reason: "\(lockShown) does not lock it"))
                continue
            }
            let version = locked?.version ?? dependency.version
            if let present = chart.subcharts.first(where: { $0.name == dependency.name }) {
                if let locked, Self.isExact(locked.version), !Self.same(present.version, locked.version) {
                    problems.append(
                        .init(
                            dependency: dependency,
                            reason:
                                "\(chartPath)/\(present.origin) holds version \(present.version), \(lockShown) locks \(locked.version); remove it (relctl then fetches \(locked.version)) or run `helm dependency update`"
                        ))
                } else {
                    context.console.info(
                        "chart \(chart.name): dependency \(dependency.name) \(present.version) from \(chartPath)/\(present.origin)"
                    )
                }
                continue
            }
            do {
                let source = try source(of: dependency, version: version, pinnedByLock: locked != nil)
                let fetched = try await fetch(dependency, from: source, version: version)
                // A range (a file:// dependency without a lock may name one) is Helm's to judge.
                guard fetched.chart.name == dependency.name,
                    !Self.isExact(version) || Self.same(fetched.chart.version, version)
                else {
                    throw Failure(
                        "\(fetched.source) holds the chart \(fetched.chart.name) \(fetched.chart.version), not \(dependency.name) \(version)"
                    )
                }
                var subchart = fetched.chart
                subchart.origin = fetched.source
                completed.subcharts.append(subchart)
                context.console.info(
                    "chart \(chart.name): dependency \(dependency.name) \(version) from \(fetched.source)")
            } catch let failure as Failure {
                problems.append(.init(dependency: dependency, version: version, reason: failure.reason))
            }
        }
        guard problems.isEmpty else {
            throw HelmDependencyError.missing(chart: chartPath, problems: problems)
        }
        completed.subcharts.sort { bytewiseLess($0.name, $1.name) }
        return completed
    }

    private var lockShown: String { (chartPath == "." ? "" : chartPath + "/") + "Chart.lock" }

    /// Helm's rule: Chart.lock's digest is that of Chart.yaml's dependencies and the lock's.
    private func checkLock(_ dependencies: HelmDependencies) throws {
        guard let lock = dependencies.lock else { return }
        let computed = HelmDependencies.digest(declared: dependencies.declared, locked: lock.dependencies)
        guard computed == lock.digest else {
            throw HelmDependencyError.lockOutOfSync(lock: lockShown, digest: lock.digest, computed: computed)
        }
    }

    /// What `relctl check` can tell without the network: the lock matches Chart.yaml, every
    /// dependency is vendored at the locked version, or inside the project (`file://`), or has a
    /// repository relctl can fetch from at one pinned version.
    package func checkOffline(_ chart: HelmChartPackage) throws {
        let dependencies = chart.dependencies
        guard !dependencies.declared.isEmpty else { return }
        try checkLock(dependencies)
        var problems: [HelmDependencyError.Problem] = []
        for (index, dependency) in dependencies.declared.enumerated() {
            let locked = dependencies.locked(dependency, at: index)
            let version = locked?.version ?? dependency.version
            if dependencies.lock != nil, locked == nil {
                problems.append(.init(dependency: dependency, reason: "\(lockShown) does not lock it"))
            } else if let present = chart.subcharts.first(where: { $0.name == dependency.name }) {
                if let locked, Self.isExact(locked.version), !Self.same(present.version, locked.version) {
                    problems.append(
                        .init(
                            dependency: dependency,
                            reason:
                                "\(chartPath)/\(present.origin) holds version \(present.version), \(lockShown) locks \(locked.version)"
                        ))
                }
            } else {
                do {
                    if case .file(let path) = try source(of: dependency, version: version, pinnedByLock: locked != nil)
                    {
                        _ = try local(dependency, path: path)
                    }
                } catch let failure as Failure {
                    problems.append(.init(dependency: dependency, version: version, reason: failure.reason))
                }
            }
        }
        guard problems.isEmpty else { throw HelmDependencyError.missing(chart: chartPath, problems: problems) }
    }

    /// Where a dependency comes from.
    enum Source {
        case file(String)
        case oci
        case index
    }

    /// Why one dependency could not be fetched, in words for the error's list.
    struct Failure: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The dependency's source, refused here when relctl cannot fetch it (no repository, a
    /// `helm repo add` name, a range without a lock, another scheme).
    private func source(
        of dependency: HelmDependencies.Dependency, version: String, pinnedByLock: Bool
    ) throws
        -> Source
    {
        let repository = dependency.repository
        if repository.isEmpty {
            throw Failure(
                "it has no `repository` and \(chartPath)/charts/ holds no chart named \(dependency.name); put it there (a folder or a .tgz) or name its repository"
            )
        }
        if repository.hasPrefix("@") || repository.hasPrefix("alias:") {
            throw Failure(
                "`\(repository)` names a repository added with `helm repo add`, which relctl does not read; write the repository's URL in Chart.yaml (and run `helm dependency update`)"
            )
        }
        if repository.hasPrefix("file://") { return .file(String(repository.dropFirst(7))) }
        guard pinnedByLock || Self.isExact(version) else {
            throw Failure(
                "Chart.yaml asks for `\(version)`, a range, and there is no Chart.lock to pin it; run `helm dependency update` to write Chart.lock (relctl packages the locked versions), or name an exact version"
            )
        }
        if repository.hasPrefix("oci://") { return .oci }
        let lowered = repository.lowercased()
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://") else {
            throw Failure(
                "`\(repository)` is neither http(s)://, oci:// nor file://; Helm fetches dependencies from those")
        }
        return .index
    }

    private func fetch(
        _ dependency: HelmDependencies.Dependency, from source: Source, version: String
    ) async throws
        -> (chart: HelmChartPackage, source: String)
    {
        switch source {
        case .file(let path): return try local(dependency, path: path)
        case .oci: return try await oci(dependency, version: version)
        case .index: return try await indexed(dependency, version: version)
        }
    }

    /// The same version, however written (`=1.2.3`, `v1.2.3`, `1.2.3`).
    static func same(_ first: String, _ second: String) -> Bool {
        func bare(_ text: String) -> Substring {
            var text = Substring(text.trimmingCharacters(in: .whitespaces))
            if text.hasPrefix("=") { text = text.dropFirst() }
            if text.hasPrefix("v") { text = text.dropFirst() }
            return text
        }
        return bare(first) == bare(second)
    }

    /// `1.2.3`, `v1.2.3` or `=1.2.3`: one version, not a range.
    static func isExact(_ version: String) -> Bool {
        var text = Substring(version.trimmingCharacters(in: .whitespaces))
        if text.hasPrefix("=") { text = text.dropFirst() }
        if text.hasPrefix("v") { text = text.dropFirst() }
        let core = text.prefix { $0 != "-" && $0 != "+" }
        let parts = core.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
    }

    // MARK: file://

    private func local(
        _ dependency: HelmDependencies.Dependency, path: String
    ) throws -> (
        chart: HelmChartPackage, source: String
    ) {
        let relative = path.hasPrefix("/") ? path : (chartPath == "." ? path : chartPath + "/" + path)
        let folder: URL
        do {
            folder = try ConfinedPath.resolveInside(relative, root: root, what: "dependency \(dependency.name)")
        } catch let error as ConfinedPathError {
            throw Failure(
                "file://\(path) leads outside the project (\(error.step)); relctl reads dependency folders inside the project only"
            )
        }
        guard FileKind.isDirectory(folder.path) else {
            throw Failure("file://\(path) is no folder (\(relative) does not exist)")
        }
        return (try HelmChartPackage.load(folder: folder, shown: relative, topLevel: false), "file://\(path)")
    }

    // MARK: http(s) chart repositories

    private func indexed(
        _ dependency: HelmDependencies.Dependency, version: String
    ) async throws -> (
        chart: HelmChartPackage, source: String
    ) {
        let base = dependency.repository.hasSuffix("/") ? dependency.repository : dependency.repository + "/"
        guard let baseURL = URL(string: base),
            let indexURL = URL(string: "index.yaml", relativeTo: baseURL)?.absoluteURL
        else { throw Failure("`\(dependency.repository)` is not a URL") }
        let index = try await get(indexURL, limit: Self.indexLimit, what: "the repository index")
        let document: HelmYAML
        do { document = try HelmYAML.parse(String(decoding: index, as: UTF8.self)) } catch {
            throw Failure("\(indexURL.absoluteString) line \(error.line): \(error.reason)")
        }
        guard let versions = document["entries"]?[dependency.name]?.items else {
            throw Failure("\(indexURL.absoluteString) lists no chart named \(dependency.name)")
        }
        guard let entry = versions.first(where: { $0["version"]?.text == version }) else {
            let known = versions.compactMap { $0["version"]?.text }.prefix(5).joined(separator: ", ")
            throw Failure(
                "\(indexURL.absoluteString) has no \(dependency.name) \(version) (it lists \(known.isEmpty ? "none" : known)\(versions.count > 5 ? ", …" : ""))"
            )
        }
        guard let first = entry["urls"]?.items?.first?.text,
            let archiveURL = URL(string: first, relativeTo: baseURL)?.absoluteURL,
            let scheme = archiveURL.scheme?.lowercased(), scheme == "https" || scheme == "http"
        else {
            throw Failure("\(indexURL.absoluteString) gives \(dependency.name) \(version) no http(s) download URL")
        }
        let archive = try await get(archiveURL, limit: Self.archiveLimit, what: "the chart archive")
        let source = archiveURL.absoluteString
        if let digest = entry["digest"]?.text {
            let actual = FileHasher.hex(SHA256.hash(data: archive))
            let expected = digest.hasPrefix("sha256:") ? String(digest.dropFirst(7)) : digest
            guard actual == expected.lowercased() else {
                throw Failure(
                    "\(source) has SHA-256 \(actual), but the repository index says \(expected); nothing was packaged")
            }
        }
        return (try loadArchive(archive, source: source), source)
    }

    private func get(_ url: URL, limit: Int64, what: String) async throws -> Data {
        var request = HTTPRequest(method: "GET", url: url)
        request.responseLimit = limit
        let response: HTTPResponse
        do { response = try await RetryingHTTPClient(base: context.http).send(request) } catch {
            throw Failure("\(what) \(url.absoluteString) could not be fetched: \(RegistryClient.reason(error))")
        }
        guard response.status == 200 else {
            throw Failure("\(what) \(url.absoluteString) answered HTTP \(response.status)")
        }
        return response.body
    }

    private func loadArchive(_ archive: Data, source: String) throws -> HelmChartPackage {
        do { return try HelmChartPackage.load(archive: archive, shown: source) } catch let error as ChannelError {
            throw Failure(error.message)
        }
    }

    // MARK: oci://

    private func oci(
        _ dependency: HelmDependencies.Dependency, version: String
    ) async throws -> (
        chart: HelmChartPackage, source: String
    ) {
        var path = String(dependency.repository.dropFirst("oci://".count))
        while path.hasSuffix("/") { path.removeLast() }
        let tag = version.replacingOccurrences(of: "+", with: "_")
        let reference: ImageReference
        do { reference = try ImageReference(parsing: "\(path)/\(dependency.name):\(tag)") } catch {
            throw Failure("`\(dependency.repository)` is not an OCI repository: \(RegistryClient.reason(error))")
        }
        let source = "oci://\(reference.registry)/\(reference.repository):\(tag)"
        do {
            let credentials = try await DockerCredentials(
                environment: context.environment, processes: context.processes
            ).lookup(registry: reference.registry)
            let client = RegistryClient(reference: reference, credentials: credentials, push: false, http: context.http)
            try await client.ping()
            let answer = try await client.send(
                "GET", "manifests/\(tag)", headers: ["Accept": OCIMediaType.manifest])
            guard answer.status == 200 else {
                throw Failure("\(source): the registry answered HTTP \(answer.status) for the manifest")
            }
            let manifest = try OCIJSON.decode(OCIManifest.self, from: answer.body, what: "chart manifest \(source)")
            guard manifest.config.mediaType == HelmChartPusher.configMediaType,
                let layer = manifest.layers.first(where: {
                    $0.mediaType == HelmChartPusher.layerMediaType || $0.mediaType == Self.legacyLayerMediaType
                })
            else {
                throw Failure("\(source) is not a Helm chart (no \(HelmChartPusher.layerMediaType) layer)")
            }
            guard ImageReference.isDigest(layer.digest), layer.size >= 0, layer.size <= Self.archiveLimit else {
                throw Failure(
                    "\(source) names a chart layer that is malformed or larger than \(Self.archiveLimit >> 20) MiB")
            }
            let file = Temporaries.scratchURL("chart-layer")
            defer { try? FileSystem.remove(file) }
            let blob = try await client.send("GET", "blobs/\(layer.digest)", download: (file, layer.size))
            guard blob.status == 200, let archive = FileSystem.contents(of: file) else {
                throw Failure("\(source): the registry answered HTTP \(blob.status) for the chart layer")
            }
            let actual = "sha256:" + FileHasher.hex(SHA256.hash(data: archive))
            guard actual == layer.digest else {
                throw Failure(
                    "\(source): the chart layer has digest \(actual), not \(layer.digest) as its manifest says")
            }
            return (try loadArchive(archive, source: source), source)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure("\(source) could not be pulled: \(RegistryClient.reason(error))")
        }
    }
}

/// A chart whose dependencies cannot all be packaged (exit 1): nothing is written.
package enum HelmDependencyError: RelctlError {
    package struct Problem: Sendable {
        package var dependency: HelmDependencies.Dependency
        package var version: String?
        package var reason: String
    }

    case lockOutOfSync(lock: String, digest: String, computed: String)
    case missing(chart: String, problems: [Problem])

    package var exitCode: RelctlExitCode { .failure }

    package var diagnostics: [Diagnostic] {
        switch self {
        case let .lockOutOfSync(lock, digest, computed):
            return [
                Diagnostic(
                    file: lock,
                    "is out of sync with Chart.yaml's dependencies (its digest is \(digest), Chart.yaml and the lock give \(computed)); run `helm dependency update` and commit Chart.lock; the chart was not packaged"
                )
            ]
        case let .missing(chart, problems):
            let names = problems.map(\.dependency.name).joined(separator: ", ")
            return [
                Diagnostic(
                    file: HelmChartFile.fileName(in: chart),
                    "the chart was not packaged: \(problems.count == 1 ? "its dependency" : "\(problems.count) of its dependencies") \(names) cannot be included"
                )
            ]
                + problems.map { problem in
                    let version = problem.version ?? problem.dependency.version
                    let repository =
                        problem.dependency.repository.isEmpty ? "" : " from \(problem.dependency.repository)"
                    return Diagnostic("  \(problem.dependency.name) \(version)\(repository): \(problem.reason)")
                }
                + [
                    Diagnostic(
                        "vendor them into \(chart)/charts/ (`helm dependency build \(chart)` writes each .tgz there; relctl takes them as they are) or make their repository reachable"
                    )
                ]
        }
    }
}
