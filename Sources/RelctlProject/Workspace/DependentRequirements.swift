import Foundation
import RelctlBasics
import RelctlChanges
import RelctlModel

/// What a member's release rewrites outside its own manifests: every dependent's requirement on
/// it, and the entries of a workspace's root package-lock.json that follow them. Only the
/// requirement's version text changes; the file is never reformatted.
///
/// The rule: a dependent that is released because of this release must require it, so a
/// requirement of one version after an operator (Cargo `1.0`, `^1.2`, `~1.2.3`, `=1.2.3`; npm
/// `^1.2.0`, `~1.2`, `>=1.2.0`, `1.2.0`) becomes that operator and the full new version
/// (`1.0` → `1.3.0`, `^1.2` → `^1.3.0`): a shorter form could not state a patch release as the
/// minimum. npm's `workspace:` ranges stay as written (pnpm and yarn replace them when
/// publishing), as do `file:`/`link:` paths; any other range (several comparators, wildcards) is
/// left to its author, with a note when it no longer admits the new version.
package enum DependentRequirements {
    package struct Result: Sendable {
        package var edits: [VersionBump.PlannedEdit] = []
        package var notes: [String] = []
    }

    /// The edits for `plan`'s member released as `version`; `root` is where messages start paths.
    package static func edits(for plan: MemberPlan, version: SemanticVersion, root: URL) throws -> Result {
        var result = Result()
        var seen: Set<String> = []
        for edge in plan.dependents {
            guard let file = edge.requirementFile, seen.insert(file.path + "\u{0}" + edge.package).inserted else {
                continue
            }
            switch edge.ecosystem {
            case .cargo:
                for companion in CompanionFinder.requirements(in: file, on: [edge.package], root: root) {
                    guard let new = raised(companion.text, to: version) else { continue }
                    result.edits.append(
                        .init(
                            url: file, line: companion.line, column: nil, old: companion.text, new: new,
                            what: "requirement of `\(edge.dependent)` on `\(edge.package)`"))
                }
            case .npm:
                let shown = CompanionFinder.display(file, root: root)
                guard let text = try ProjectFile.open(location: file, shown: shown).text() else { continue }
                npm(
                    JSONStringLines(text), prefix: [], package: edge.package, file: file, shown: shown,
                    who: edge.dependent, version: version, into: &result)
            case .python, .swiftpm, .dart:
                continue
            }
        }
        try rootLock(for: plan, version: version, root: root, into: &result)
        return result
    }

    /// The requirement text (without its operator) raised to `version`, or nil when it already
    /// names it or something above it.
    package static func raised(_ text: String, to version: SemanticVersion) -> String? {
        var numbers = text.split(separator: "-", maxSplits: 1)[0].split(separator: ".").map(String.init)
        while numbers.count < 3 { numbers.append("0") }
        let tail = text.contains("-") ? "-" + text.split(separator: "-", maxSplits: 1)[1] : ""
        if let written = try? SemanticVersion(parsing: numbers.joined(separator: ".") + tail),
            !(written < version)
        {
            return nil
        }
        return version.description
    }

    /// npm requirements on `package` in the dependency tables under `prefix` of a package.json
    /// (prefix `[]`) or a lock's package entry (`["packages", "packages/cli"]`).
    private static func npm(
        _ scan: JSONStringLines, prefix: [String], package: String, file: URL, shown: String, who: String,
        version: SemanticVersion, into result: inout Result
    ) {
        for (table, _) in WorkspaceDependencies.npmTables {
            guard let entry = scan.entry(at: prefix + [table, package]) else { continue }
            let spec = entry.value
            if ["workspace:", "file:", "link:"].contains(where: { spec.hasPrefix($0) }) { continue }
            if let simple = NpmRange.simple(spec) {
                guard let new = raised(simple.version, to: version) else { continue }
                result.edits.append(
                    .init(
                        url: file, line: entry.line, column: entry.column, old: spec,
                        new: spec.prefix(while: { !$0.isNumber }) + new,
                        what: "requirement of `\(who)` on `\(package)`"))
            } else if NpmRange.satisfies(spec, version) != true {
                let note =
                    "\(shown):\(entry.line): `\(who)` requires `\(package)` \(spec), which does not admit \(version); relctl leaves a range of this form as written: edit it"
                if !result.notes.contains(note) { result.notes.append(note) }
            }
        }
    }

    /// The package-lock.json of an npm workspace above the member (at the workspace's root):
    /// the member's own `packages["…"].version` and its npm dependents' requirements there.
    private static func rootLock(
        for plan: MemberPlan, version: SemanticVersion, root: URL, into result: inout Result
    ) throws {
        let folder = plan.config.root.standardizedFileURL
        guard FileSystem.exists(folder.appendingPathComponent("package.json")) else { return }
        let top = Git.repositoryTop(of: folder.path) ?? folder.path
        var directory = folder.deletingLastPathComponent()
        var lock: URL?
        while directory.path.hasPrefix(top) {
            let candidate = directory.appendingPathComponent("package-lock.json")
            if FileSystem.exists(candidate) {
                lock = candidate
                break
            }
            if directory.path == top || directory.path == "/" { break }
            directory = directory.deletingLastPathComponent()
        }
        guard let lock else { return }
        let shown = CompanionFinder.display(lock, root: root)
        guard let text = try ProjectFile.open(location: lock, shown: shown).text() else { return }
        let scan = JSONStringLines(text)
        func key(_ url: URL) -> String { WriteTarget.relative(url.standardizedFileURL.path, to: directory.path) }
        if let entry = scan.entry(at: ["packages", key(folder), "version"]), entry.value != version.description {
            result.edits.append(
                .init(
                    url: lock, line: entry.line, column: entry.column, old: entry.value, new: version.description,
                    what: "package-lock.json entry of `\(plan.name)`"))
        }
        for edge in plan.dependents where edge.ecosystem == .npm {
            guard let file = edge.requirementFile else { continue }
            npm(
                scan, prefix: ["packages", key(file.deletingLastPathComponent())], package: edge.package, file: lock,
                shown: shown, who: edge.dependent, version: version, into: &result)
        }
    }
}
