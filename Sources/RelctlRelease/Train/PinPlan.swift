import Foundation
import RelctlBasics
import RelctlChanges
import RelctlModel

/// The pins of one repository worked out against its files: what each would change, and the new
/// file contents. Computed in the preflight and the dry run (to report) and again just before
/// the commit (to write), so a file edited in between is read fresh.
struct PinPlan: Sendable {
    var repository: String
    var changes: [PinChange] = []
    /// New contents per file (relative path), only for files that change.
    var contents: [String: String] = [:]

    /// True when every pin already holds its value: the pin commit is HEAD already (or none is needed).
    var satisfied: Bool { contents.isEmpty }

    /// The files the pin commit touches, sorted.
    var changedPaths: [String] { contents.keys.sorted() }

    /// Reads each pinned file of `repository` and applies its pins in order (several pins may
    /// share a file). Every problem is bad input naming the repository and the file.
    static func make(
        for repository: Workspace.Repository, tag: String, version: String, workspaceFile: String
    ) throws -> PinPlan {
        var plan = PinPlan(repository: repository.name)
        var problems: [Diagnostic] = []
        var texts: [String: String] = [:]
        var original: [String: String] = [:]
        for var pin in repository.pins {
            let shown = "\(repository.path)/\(pin.path)"
            // bump's link rules: a pinned file that is a link (or sits in a linked folder) is
            // written through to the file it resolves to inside the repository, and that file is
            // what the pin commit holds; one resolving outside is refused before anything is written.
            let target: WriteTarget
            do {
                target = try WriteTarget(
                    repository.directory.appendingPathComponent(pin.path), display: pin.path,
                    root: repository.directory)
            } catch NotesError.writeOutsideRepository(_, let reason) {
                problems.append(
                    Diagnostic(
                        file: workspaceFile,
                        "[[repo]] `\(repository.name)`: pinned file \(shown) \(reason.replacingOccurrences(of: "set the version in that file yourself", with: "pin that file in its own repository"))"
                    ))
                continue
            }
            pin.path = target.display
            let url = target.url
            if texts[pin.path] == nil {
                // `url` is WriteTarget's: inside the pinned repository, no link left on the way.
                guard let data = (try? ProjectFile.open(location: url, shown: shown))?.data(),
                    let text = String(data: data, encoding: .utf8)
                else {
                    let why =
                        FileSystem.exists(url)
                        ? "cannot be read as UTF-8 text" : "does not exist"
                    problems.append(
                        Diagnostic(
                            file: workspaceFile,
                            "[[repo]] `\(repository.name)`: pinned file \(shown) \(why); fix `path` in its [[repo.pin]]"
                        ))
                    continue
                }
                texts[pin.path] = text
                original[pin.path] = text
            }
            guard let text = texts[pin.path] else { continue }
            let new = pin.resolvedValue(tag: tag, version: version)
            do {
                let result = try pin.apply(to: text, newValue: new)
                texts[pin.path] = result.text
                plan.changes.append(PinChange(path: pin.path, line: result.line, old: result.old, new: new))
            } catch {
                let why: String
                switch error {
                case .badPattern: why = "its pattern does not compile"
                case .noMatch: why = "the pattern `\(pin.pattern)` matches nothing"
                case .timedOut:
                    why =
                        "the pattern `\(pin.pattern)` ran for more than \(RegexManifestReader.timeLimit.components.seconds) s without finishing, so relctl stopped it; nested repetition such as `(a+)+` backtracks without end: make it specific, e.g. 'FFI_VERSION: \"(?<version>[^\"]+)\"'"
                case .manyMatches(let lines):
                    why =
                        "the pattern `\(pin.pattern)` matches \(lines.count) times (lines \(lines.map(String.init).joined(separator: ", "))); make it match exactly one"
                }
                problems.append(
                    Diagnostic(file: workspaceFile, "[[repo]] `\(repository.name)`: pin in \(shown): \(why)"))
            }
        }
        guard problems.isEmpty else { throw ProblemList(exitCode: .badInput, diagnostics: problems) }
        for (path, text) in texts where text != original[path] { plan.contents[path] = text }
        return plan
    }

    /// Writes the new contents (atomically, keeping each file's permissions).
    func write(in directory: URL) throws {
        for path in changedPaths {
            guard let text = contents[path] else { continue }
            let url = directory.appendingPathComponent(path)
            let mode = FileSystem.permissions(of: url) ?? 0o644
            try AtomicFile.write(text, to: url, permissions: mode)
        }
    }

    /// The pin commit's message: `chore(release): pin FFI_VERSION to v0.2.0` style, one line per file.
    func commitMessage(tag: String) -> String {
        let changed = changes.filter(\.changes)
        var lines = ["chore(release): pin \(changedPaths.joined(separator: ", ")) to \(tag)", ""]
        for change in changed { lines.append("\(change.path):\(change.line): \(change.old) -> \(change.new)") }
        lines.append("")
        lines.append("Made by `relctl train run \(tag)` before tagging this commit.")
        return lines.joined(separator: "\n") + "\n"
    }
}
