import Foundation
import RelctlBasics
import RelctlModel
import RelctlProject

/// `relctl-workspace.toml`: the repositories a train releases and who waits for whom.
public struct Workspace: Sendable {
    /// One `[[repo]]`.
    struct Repository: Sendable, Equatable, Encodable {
        var name: String
        /// As written, relative to the workspace file.
        var path: String
        /// Absolute folder of the repository.
        var directory: URL
        /// Names released (tagged) before this one.
        var after: [String]
        /// `[[repo.pin]]`: values set (and committed) before this repository is tagged.
        var pins: [RepositoryPin] = []

        enum CodingKeys: String, CodingKey { case name, path, after, pins }
    }

    public static let defaultFileName = "relctl-workspace.toml"

    /// The file as the user named it, for messages.
    var path: String
    var repositories: [Repository]

    /// Reads and checks the workspace file; every problem (unknown key, missing `name`/`path`,
    /// duplicate name, unknown name in `after`, a cycle) is bad input (exit 2), reported together.
    public static func load(path: String, context: Context) throws -> Workspace {
        let url = context.resolve(path)
        guard FileSystem.exists(url) else {
            throw WorkspaceError.notFound(path: path)
        }
        let document = try TOMLDocument(file: ProjectFile.open(location: url, shown: path))
        let workspace = try parse(document, base: url.deletingLastPathComponent())
        let missing = workspace.repositories.filter { !FileSystem.exists($0.directory) }
        if !missing.isEmpty {
            throw ProblemList(
                exitCode: .badInput,
                diagnostics: missing.map {
                    Diagnostic(
                        file: path,
                        "[[repo]] `\($0.name)`: folder `\($0.path)` not found (\($0.directory.path)); paths are relative to the workspace file"
                    )
                })
        }
        // Two entries for one repository (two names, or a path through a link) would have the
        // train lock, tag and push it twice; it is bad input, said before anything runs.
        var seen: [String: Repository] = [:]
        var twice: [Diagnostic] = []
        for repository in workspace.repositories {
            let real = FileSystem.realPath(repository.directory.path) ?? repository.directory.path
            if let first = seen[real] {
                twice.append(
                    Diagnostic(
                        file: path,
                        "[[repo]] `\(first.name)` (`\(first.path)`) and `\(repository.name)` (`\(repository.path)`) are the same repository (\(real)); list it once"
                    ))
            } else {
                seen[real] = repository
            }
        }
        if !twice.isEmpty { throw ProblemList(exitCode: .badInput, diagnostics: twice) }
        return workspace
    }

    static func parse(_ document: TOMLDocument, base: URL) throws -> Workspace {
        let problems = DiagnosticsEngine()
        let top = TableReader(document: document, problems: problems)
        var repositories: [Repository] = []
        var lines: [String: Int] = [:]
        var seen: Set<String> = []
        for table in top.tables("repo") {
            defer { table.finish() }
            guard let name = table.string("name"), !name.isEmpty else {
                table.report(nil, "every [[repo]] needs `name`")
                continue
            }
            guard let path = table.string("path") else {
                table.report(nil, "[[repo]] `\(name)` needs `path`, the repository folder relative to this file")
                continue
            }
            if seen.contains(name) {
                table.report("name", "repository name `\(name)` is used twice; names must be unique")
                continue
            }
            seen.insert(name)
            lines[name] = table.line(of: "after") ?? table.line
            let directory = AbsolutePath(path, relativeTo: AbsolutePath(base)).url
            var repository = Repository(
                name: name, path: path, directory: directory, after: table.strings("after") ?? [])
            repository.pins = pins(of: table, repository: name)
            repositories.append(repository)
        }
        top.finish()
        if repositories.isEmpty, !problems.hasErrors {
            problems.error(
                .badInput, file: document.path, line: nil,
                "no [[repo]] entries; add one per repository (name, path, after)")
        }
        let names = repositories.map(\.name)
        for repository in repositories {
            for dependency in repository.after where !names.contains(dependency) {
                problems.error(
                    .badInput,
                    file: document.path, line: lines[repository.name],
                    "[[repo]] `\(repository.name)`: `after` names unknown repository `\(dependency)`\(Suggestion.hint(for: dependency, in: names)); known: \(names.joined(separator: ", "))"
                )
            }
            if repository.after.contains(repository.name) {
                problems.error(
                    .badInput,
                    file: document.path, line: lines[repository.name],
                    "[[repo]] `\(repository.name)` lists itself in `after`")
            }
        }
        try problems.throwIfErrors()
        let workspace = Workspace(path: document.path, repositories: repositories)
        if let cycle = workspace.findCycle() {
            throw WorkspaceError.cycle(path: document.path, cycle: cycle)
        }
        return workspace
    }

    /// The `[[repo.pin]]` tables of one `[[repo]]`, each checked: a relative `path`, a pattern with
    /// a `version` group, a value made of `{tag}` / `{version}`.
    static func pins(of table: TableReader, repository name: String) -> [RepositoryPin] {
        var pins: [RepositoryPin] = []
        for pin in table.tables("pin") {
            defer { pin.finish() }
            guard let path = pin.string("path"), !path.isEmpty else {
                pin.report(
                    nil,
                    "[[repo.pin]] of `\(name)` needs `path`, the file relative to the repository (e.g. \".github/workflows/ci.yml\")"
                )
                continue
            }
            if path.hasPrefix("/") || path.split(separator: "/").contains("..") {
                pin.report(
                    "path",
                    "[[repo.pin]] of `\(name)`: `path` must stay inside the repository (relative, no `..`): \(path)")
                continue
            }
            guard let pattern = pin.string("pattern") else {
                pin.report(
                    nil, "[[repo.pin]] of `\(name)` needs `pattern`, a regular expression with a group `(?<version>…)`")
                continue
            }
            if let problem = RepositoryPin.patternProblem(pattern) {
                pin.report("pattern", "[[repo.pin]] of `\(name)`: \(problem)")
                continue
            }
            guard let value = pin.string("value") else {
                pin.report(nil, "[[repo.pin]] of `\(name)` needs `value`: \"{tag}\" (v0.2.0) or \"{version}\" (0.2.0)")
                continue
            }
            if let problem = RepositoryPin.valueProblem(value) {
                pin.report("value", "[[repo.pin]] of `\(name)`: \(problem)")
                continue
            }
            pins.append(RepositoryPin(path: path, pattern: pattern, value: value))
        }
        return pins
    }

    /// The repositories in waves: each wave's repositories depend only on earlier waves. Within
    /// a wave, file order is kept.
    func waves() -> [[Repository]] {
        var done: Set<String> = []
        var remaining = repositories
        var result: [[Repository]] = []
        while !remaining.isEmpty {
            let ready = remaining.filter { $0.after.allSatisfy(done.contains) }
            guard !ready.isEmpty else { break }  // a cycle; `load` has rejected it already
            result.append(ready)
            done.formUnion(ready.map(\.name))
            remaining.removeAll { repository in ready.contains { $0.name == repository.name } }
        }
        return result
    }

    /// One cycle in `after`, as names with the first repeated at the end, or nil.
    func findCycle() -> [String]? {
        let byName = Dictionary(repositories.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var state: [String: Int] = [:]  // 1 visiting, 2 done
        var stack: [String] = []
        func visit(_ name: String) -> [String]? {
            if state[name] == 2 { return nil }
            if state[name] == 1 {
                let start = stack.firstIndex(of: name) ?? 0
                return Array(stack[start...]) + [name]
            }
            state[name] = 1
            stack.append(name)
            for dependency in byName[name]?.after ?? [] where byName[dependency] != nil {
                if let cycle = visit(dependency) { return cycle }
            }
            stack.removeLast()
            state[name] = 2
            return nil
        }
        for repository in repositories {
            if let cycle = visit(repository.name) { return cycle }
        }
        return nil
    }
}

/// Problems with `relctl-workspace.toml`; all are bad input (exit 2).
enum WorkspaceError: RelctlError, CustomStringConvertible {
    /// No workspace file at `path`.
    case notFound(path: String)
    /// `after` makes a cycle, so no order releases them all; `cycle` lists the names, first repeated last.
    case cycle(path: String, cycle: [String])

    var exitCode: RelctlExitCode { .badInput }

    var diagnostics: [Diagnostic] {
        switch self {
        case .notFound(let path):
            return [
                Diagnostic(
                    file: path,
                    "workspace file not found; create it with one [[repo]] (name, path, after) per repository, or pass --workspace PATH"
                )
            ]
        case let .cycle(path, cycle):
            return [
                Diagnostic(
                    file: path,
                    "`after` forms a cycle: \(cycle.joined(separator: " → ")); no order can release them, remove one of these dependencies"
                )
            ]
        }
    }

    var description: String { message }
}
