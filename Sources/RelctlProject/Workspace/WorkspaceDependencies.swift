import Foundation
import RelctlBasics
import RelctlChanges
import RelctlModel

/// One member's dependency on another, as its manifest states it.
package struct WorkspaceDependency: Sendable, Equatable {
    package enum Ecosystem: String, Sendable { case cargo, npm, python, swiftpm, dart }
    /// What the dependency is needed for. A dev-dependency ships nothing to users and Cargo allows
    /// cycles through them, so it neither raises the dependent nor orders releases; its
    /// requirement still follows, so the workspace keeps building.
    package enum Kind: String, Sendable { case normal, build, dev, peer, optional }

    package var dependent: String
    package var dependency: String
    package var ecosystem: Ecosystem
    package var kind: Kind
    /// The manifest holding the requirement that follows the dependency's releases (the member's
    /// own, or the root Cargo.toml for `workspace = true`); nil where relctl rewrites none
    /// (PEP 621 requirements, SwiftPM path packages).
    package var requirementFile: URL?
    /// The dependency's package name there (Cargo crate or npm package).
    package var package: String
    /// The range the dependent's manifest gives (npm: `^5.0.0`, `workspace:^`); nil elsewhere.
    package var range: String? = nil

    /// Whether a release of the dependency raises the dependent and orders the two.
    package var counts: Bool { kind != .dev }
}

/// The dependencies between a workspace's members, read from their manifests (Cargo path and
/// `workspace = true` dependencies, npm workspace/local/matching ranges, PEP 621 dependencies,
/// SwiftPM path packages, pub dependencies by name); the `dependency` release of dependents; the release order.
package enum WorkspaceDependencies {
    private static let cargoTables: [(String, WorkspaceDependency.Kind)] = [
        ("dependencies", .normal), ("build-dependencies", .build), ("dev-dependencies", .dev),
    ]
    package static let npmTables: [(String, WorkspaceDependency.Kind)] = [
        ("dependencies", .normal), ("optionalDependencies", .optional), ("peerDependencies", .peer),
        ("devDependencies", .dev),
    ]

    /// Every dependency of a member on another member, in member order.
    package static func read(_ members: [WorkspaceMember]) throws -> [WorkspaceDependency] {
        let folders = members.map { $0.config.root.standardizedFileURL.path }
        var npmNames: [String: Int] = [:]
        var pythonNames: [String: Int] = [:]
        var cargoNames: [Int: String] = [:]
        var dartNames: [String: Int] = [:]
        for (index, member) in members.enumerated() {
            let root = member.config.root
            if let name = Pubspec.read(in: root)?.name { dartNames[name] = index }
            if let name = try npmManifest(in: root, shown: member.path)?.name { npmNames[name] = index }
            if let name = try toml(
                root.appendingPathComponent("pyproject.toml"), shown: member.path + "/pyproject.toml")?
                .root["project"]?.table?["name"]?.string
            {
                pythonNames[CompanionFinder.normalisedName(name)] = index
            }
            if let name = try toml(root.appendingPathComponent("Cargo.toml"), shown: member.path + "/Cargo.toml")?
                .root["package"]?.table?["name"]?.string
            {
                cargoNames[index] = name
            }
        }
        /// The member whose folder is `folder` or holds it most closely (never `self`).
        func holder(of folder: URL, not this: Int) -> Int? {
            let path = folder.standardizedFileURL.path
            let holding = folders.indices.filter {
                $0 != this && (path == folders[$0] || path.hasPrefix(folders[$0] + "/"))
            }
            return holding.max { folders[$0].count < folders[$1].count }
        }
        var found: [WorkspaceDependency] = []
        func add(
            _ dependent: Int, _ dependency: Int, _ ecosystem: WorkspaceDependency.Ecosystem,
            _ kind: WorkspaceDependency.Kind, file: URL?, package: String, range: String? = nil
        ) {
            let edge = WorkspaceDependency(
                dependent: members[dependent].name, dependency: members[dependency].name, ecosystem: ecosystem,
                kind: kind, requirementFile: file?.standardizedFileURL, package: package, range: range)
            if !found.contains(edge) { found.append(edge) }
        }
        var workspaceRoots: [String: (URL, TOMLDocument)?] = [:]
        for (index, member) in members.enumerated() {
            let root = member.config.root
            let cargoManifest = root.appendingPathComponent("Cargo.toml")
            if let document = try toml(cargoManifest, shown: member.path + "/Cargo.toml") {
                for (table, kind) in cargoTablesOf(document.root) {
                    for (key, value) in table.sorted(by: { $0.key < $1.key }) {
                        guard let entry = value.table else { continue }
                        var path = entry["path"]?.string.map { root.appendingPathComponent($0) }
                        var file = cargoManifest
                        var crate = entry["package"]?.string ?? key
                        if entry["workspace"]?.bool == true,
                            let (rootManifest, rootDocument) = try cargoWorkspaceRoot(
                                above: root, cache: &workspaceRoots),
                            let shared = rootDocument.root["workspace"]?.table?["dependencies"]?.table?[key]?.table
                        {
                            path = shared["path"]?.string.map {
                                rootManifest.deletingLastPathComponent().appendingPathComponent($0)
                            }
                            file = rootManifest
                            crate = shared["package"]?.string ?? crate
                        }
                        guard let path, let target = holder(of: path, not: index) else { continue }
                        add(index, target, .cargo, kind, file: file, package: cargoNames[target] ?? crate)
                    }
                }
            }
            if let manifest = try npmManifest(in: root, shown: member.path) {
                for (table, kind) in npmTables {
                    for (name, spec) in (manifest.object[table] as? [String: Any] ?? [:]).sorted(by: { $0.key < $1.key }
                    ) {
                        guard let spec = spec as? String, let target = npmNames[name], target != index else { continue }
                        let linked: Bool
                        if spec.hasPrefix("workspace:") {
                            linked = true
                        } else if let local = ["file:", "link:"].first(where: { spec.hasPrefix($0) }) {
                            linked =
                                holder(of: root.appendingPathComponent(String(spec.dropFirst(local.count))), not: index)
                                == target
                        } else if let version = try? npmManifest(
                            in: members[target].config.root, shown: members[target].path)?
                            .version.flatMap({ try? SemanticVersion(parsing: $0) })
                        {
                            linked = NpmRange.satisfies(spec, version) == true
                        } else {
                            linked = false
                        }
                        if linked {
                            add(
                                index, target, .npm, kind, file: root.appendingPathComponent("package.json"),
                                package: name, range: spec)
                        }
                    }
                }
            }
            if let project = try toml(
                root.appendingPathComponent("pyproject.toml"), shown: member.path + "/pyproject.toml")?
                .root["project"]?.table
            {
                var requirements = [(project["dependencies"]?.array ?? [], WorkspaceDependency.Kind.normal)]
                for (_, extra) in (project["optional-dependencies"]?.table ?? [:]).sorted(by: { $0.key < $1.key }) {
                    requirements.append((extra.array ?? [], .optional))
                }
                for (list, kind) in requirements {
                    for requirement in list.compactMap(\.string) {
                        // PEP 508: the name comes first, then extras, versions or markers.
                        let name = requirement.trimmingCharacters(in: .whitespaces)
                            .prefix(while: { $0.isLetter || $0.isNumber || "-_.".contains($0) })
                        guard let target = pythonNames[CompanionFinder.normalisedName(String(name))], target != index
                        else { continue }
                        add(index, target, .python, kind, file: nil, package: String(name))
                    }
                }
            }
            // pub's `dependencies` naming another member (melos versions a dependent with each
            // release of its dependency: flame_audio's "Update a dependency to the latest release.").
            if let pubspec = Pubspec.read(in: root) {
                for (names, kind) in [(pubspec.dependencies, WorkspaceDependency.Kind.normal), (pubspec.devDependencies, .dev)] {
                    for name in names {
                        guard let target = dartNames[name], target != index else { continue }
                        add(index, target, .dart, kind, file: nil, package: name)
                    }
                }
            }
            let swift = root.appendingPathComponent("Package.swift")
            if let text = try ProjectFile.open(location: swift, shown: member.path + "/Package.swift").text() {
                for path in swiftPathPackages(text) {
                    guard let target = holder(of: root.appendingPathComponent(path), not: index) else { continue }
                    add(index, target, .swiftpm, .normal, file: nil, package: members[target].name)
                }
            }
        }
        return found
    }

    /// `.package(path: "../core")` and `.package(name: "Core", path: "../core")` in a Package.swift.
    package static func swiftPathPackages(_ text: String) -> [String] {
        guard
            let expression = try? NSRegularExpression(
                pattern: #"\.package\s*\(\s*(?:name\s*:\s*"[^"]*"\s*,\s*)?path\s*:\s*"([^"]+)""#)
        else { return [] }
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    private static func cargoTablesOf(_ root: [String: TOMLNode]) -> [([String: TOMLNode], WorkspaceDependency.Kind)] {
        var tables: [([String: TOMLNode], WorkspaceDependency.Kind)] = []
        for (key, kind) in cargoTables {
            if let table = root[key]?.table { tables.append((table, kind)) }
        }
        for (_, target) in (root["target"]?.table ?? [:]).sorted(by: { $0.key < $1.key }) {
            for (key, kind) in cargoTables {
                if let table = target.table?[key]?.table { tables.append((table, kind)) }
            }
        }
        return tables
    }

    /// The first Cargo.toml with `[workspace]` above `folder`, up to the repository's top.
    private static func cargoWorkspaceRoot(
        above folder: URL, cache: inout [String: (URL, TOMLDocument)?]
    ) throws -> (URL, TOMLDocument)? {
        let top = Git.repositoryTop(of: folder.standardizedFileURL.path) ?? folder.standardizedFileURL.path
        var directory = folder.standardizedFileURL
        while directory.path.hasPrefix(top) {
            if let known = cache[directory.path] { return known }
            let candidate = directory.appendingPathComponent("Cargo.toml")
            if let document = try toml(candidate, shown: candidate.path), document.root["workspace"]?.table != nil {
                cache[directory.path] = (candidate, document)
                return (candidate, document)
            }
            if directory.path == top || directory.path == "/" { break }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }

    private static func toml(_ url: URL, shown: String) throws -> TOMLDocument? {
        guard FileSystem.exists(url) else { return nil }
        return try TOMLDocument(file: ProjectFile.open(location: url, shown: shown))
    }

    private struct NpmManifest {
        var object: [String: Any]
        var name: String?
        var version: String?
    }

    private static func npmManifest(in folder: URL, shown: String) throws -> NpmManifest? {
        let url = folder.appendingPathComponent("package.json")
        let display = shown + "/package.json"
        guard let text = try ProjectFile.open(location: url, shown: display).text() else { return nil }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
            throw ManifestError.invalid(path: display, line: nil, reason: "not a JSON object")
        }
        return NpmManifest(object: object, name: object["name"] as? String, version: object["version"] as? String)
    }

    // MARK: the plan

    /// After the groups: a member depending on a member that gets a release gets at least its
    /// patch release (`bump.next` with no changes of its own), reason `dependency`, through
    /// chains; a group with a member raised that way raises the whole group. A dependency's
    /// major never raises a dependent beyond that patch.
    package static func raise(
        _ plans: inout [MemberPlan], along dependencies: [WorkspaceDependency], groups: [WorkspaceSettings.Group]
    ) {
        let index = Dictionary(plans.indices.map { (plans[$0].name, $0) }, uniquingKeysWith: { first, _ in first })
        var changed = true
        while changed {
            changed = false
            for edge in dependencies where edge.counts {
                guard let dependent = index[edge.dependent], let dependency = index[edge.dependency],
                    let version = plans[dependency].nextText ?? plans[dependency].next?.description
                else { continue }
                if !plans[dependent].movedDependencies.contains(where: { $0.name == edge.dependency }) {
                    plans[dependent].movedDependencies.append((edge.dependency, version))
                }
                guard plans[dependent].next == nil else { continue }
                plans[dependent].next = plans[dependent].bump.next
                plans[dependent].tag = plans[dependent].bump.nextTag
                plans[dependent].reason = "dependency"
                changed = true
                for group in groups where group.members.contains(edge.dependent) {
                    VersionPlan.lockstep(&plans, group: group)
                }
            }
        }
        // A group's version may have moved after a dependent noted it.
        for position in plans.indices {
            plans[position].movedDependencies = plans[position].movedDependencies.map { moved in
                guard let dependency = index[moved.name] else { return moved }
                return (moved.name, plans[dependency].nextText ?? moved.version)
            }
        }
    }

    /// changesets' rule for a peer dependency, where the project keeps changesets
    /// (`fragments = "changesets"`): a member whose peer dependency gets a minor or a major is
    /// released as a major (`shouldBumpMajor` in changesets' assemble-release-plan: a peer range
    /// the dependent's users must now meet may break them). With
    /// `onlyUpdatePeerDependentsWhenOutOfRange` (or `autoBumpPeerDependentsCondition =
    /// "out-of-range"`) only when the new version leaves the dependent's range (`workspace:^` and
    /// `workspace:~` are `^` and `~` of the dependency's current version, as changesets reads them
    /// since 2.27: xstate's `@xstate/react` went major with each major of `xstate`; `workspace:*`
    /// is kept, as changesets long read it; a range relctl cannot read is taken as kept); with
    /// `bumpVersionsWithWorkspaceProtocolOnly`
    /// only for a `workspace:` range (sveltejs/kit's adapters name `^2.4.0`); with
    /// `autoBumpPeerDependentsStrategy = "follow"` never. keystone's `@keystone-6/auth` went
    /// 7.0.3 → 8.0.0 when `@keystone-6/core` left its `^5.0.0` for 6.0.0; relctl's own rule (a
    /// patch with the range raised) stays for projects without changesets.
    package static func raiseChangesetsPeers(
        _ plans: inout [MemberPlan], along dependencies: [WorkspaceDependency], groups: [WorkspaceSettings.Group],
        options: [String: Any]
    ) {
        let experimental = options["___experimentalUnsafeOptions_WILL_CHANGE_IN_PATCH"] as? [String: Any]
        guard options["autoBumpPeerDependentsStrategy"] as? String != "follow",
            options["autoBumpPeerDependentsInSameChangeset"] as? Bool != false
        else { return }
        let outOfRangeOnly =
            experimental?["onlyUpdatePeerDependentsWhenOutOfRange"] as? Bool == true
            || options["autoBumpPeerDependentsCondition"] as? String == "out-of-range"
        let index = Dictionary(plans.indices.map { (plans[$0].name, $0) }, uniquingKeysWith: { first, _ in first })
        var changed = true
        while changed {
            changed = false
            for edge in dependencies where edge.kind == .peer && edge.ecosystem == .npm {
                guard let dependent = index[edge.dependent], let dependency = index[edge.dependency],
                    let next = plans[dependency].next, let was = plans[dependency].bump.current, !next.isPrerelease,
                    next.major != was.major || next.minor != was.minor,
                    let current = plans[dependent].bump.current, !current.isPrerelease
                else { continue }
                let range = edge.range ?? ""
                let workspace = range.hasPrefix("workspace:")
                if options["bumpVersionsWithWorkspaceProtocolOnly"] as? Bool == true, !workspace { continue }
                if outOfRangeOnly {
                    var stated = workspace ? String(range.dropFirst("workspace:".count)) : range
                    if stated == "^" || stated == "~" { stated += was.description }
                    if ["*", ""].contains(stated) || NpmRange.satisfies(stated, next) != false { continue }
                }
                let major = VersionBump.next(after: current, level: .major, majorBelowOne: true)
                guard plans[dependent].next.map({ $0 < major }) ?? true else { continue }
                plans[dependent].next = major
                plans[dependent].tag = plans[dependent].history.format.tag(for: major)
                plans[dependent].reason = "dependency"
                changed = true
                for group in groups where group.members.contains(edge.dependent) {
                    VersionPlan.lockstep(&plans, group: group)
                }
            }
        }
    }

    /// The members in an order they can be released in: every member after the members it
    /// depends on (dev- and peer dependencies aside), otherwise in the order given. A cycle is
    /// exit 2 naming its members. A peer dependency orders nothing: the package manager installs
    /// the peer beside the dependent, so neither needs the other published first, and a peer is
    /// how a plugin names its host (nuxt depends on `@nuxt/nitro-server`, which names `nuxt` as its
    /// peer: a cycle that made plan exit 2 at every release of nuxt).
    package static func order(
        _ names: [String], along dependencies: [WorkspaceDependency], config: String
    ) throws -> [String] {
        var needs: [String: Set<String>] = [:]
        for edge in dependencies
        where edge.counts && edge.kind != .peer && names.contains(edge.dependency) && edge.dependent != edge.dependency {
            needs[edge.dependent, default: []].insert(edge.dependency)
        }
        var ordered: [String] = []
        var done: Set<String> = []
        while ordered.count < names.count {
            guard let next = names.first(where: { !done.contains($0) && (needs[$0] ?? []).isSubset(of: done) }) else {
                throw WorkspaceDependencyError.cycle(
                    config: config, members: cycle(in: needs, among: names.filter { !done.contains($0) }))
            }
            ordered.append(next)
            done.insert(next)
        }
        return ordered
    }

    /// One cycle among `left` (every one of them waits on another): followed from the first
    /// until a member comes round again.
    private static func cycle(in needs: [String: Set<String>], among left: [String]) -> [String] {
        var path: [String] = []
        var current = left[0]
        while !path.contains(current) {
            path.append(current)
            guard let next = left.first(where: { needs[current]?.contains($0) == true }) else { break }
            current = next
        }
        let start = path.firstIndex(of: current) ?? 0
        return Array(path[start...]) + [current]
    }
}

/// A dependency cycle between members: bad input (exit 2).
package enum WorkspaceDependencyError: RelctlError {
    case cycle(config: String, members: [String])

    package var exitCode: RelctlExitCode { .badInput }

    package var diagnostics: [Diagnostic] {
        switch self {
        case let .cycle(config, members):
            return [
                Diagnostic(
                    file: config,
                    "workspace members depend on each other in a cycle (\(members.map { "`\($0)`" }.joined(separator: " → "))), so none of them can be released first; remove one of these dependencies (or make it a dev-dependency, which does not order releases)"
                )
            ]
        }
    }
}
