import Foundation
import RelctlBasics

/// Finds the companions of a `[[version]]` manifest by its kind: Cargo (Cargo.lock entries and
/// path-dependency requirements of the workspace's packages that share the manifest's version),
/// npm (package-lock.json root entries, pins on the package's own per-platform packages) and
/// Python (uv.lock's editable root package). Other kinds have none.
package enum CompanionFinder {
    /// The companions of `source`, whose version `found` was just read, in the project at `root`.
    package static func companions(of source: VersionSource, found: ManifestVersion, root: URL) throws -> [Companion] {
        let manifest = url(source.path, root: root)
        switch source.kind {
        case "cargo": return try cargo(manifest: manifest, found: found, root: root)
        case "npm": return npm(manifest: manifest, root: root)
        case "python": return python(manifest: manifest, root: root)
        default: return []
        }
    }

    package static func url(_ path: String, root: URL) -> URL {
        AbsolutePath(path, relativeTo: AbsolutePath(root)).url
    }

    /// `url` relative to `root`, as messages show paths: `Cargo.lock`, or `../../Cargo.lock` for
    /// the workspace root above a member crate's project.
    package static func display(_ url: URL, root: URL) -> String {
        let base = root.standardizedFileURL.path
        let path = url.standardizedFileURL.path
        if path.hasPrefix(base + "/") { return String(path.dropFirst(base.count + 1)) }
        let (from, to) = (base.split(separator: "/"), path.split(separator: "/"))
        let common = zip(from, to).prefix { $0 == $1 }.count
        guard common > 0 else { return path }
        return (Array(repeating: "..", count: from.count - common) + to.dropFirst(common).map(String.init))
            .joined(separator: "/")
    }

    private static func lines(of url: URL) -> [String]? {
        guard let data = (try? ProjectFile.open(location: url))?.data() else { return nil }
        return TextFile.decode(data).utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// `key = "value"` on one line of TOML, or nil.
    package static func tomlString(_ line: String, key: String) -> String? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix(key) else { return nil }
        let rest = trimmed.dropFirst(key.count).trimmingCharacters(in: .whitespaces)
        guard rest.hasPrefix("=") else { return nil }
        let value = rest.dropFirst().trimmingCharacters(in: .whitespaces)
        guard value.hasPrefix("\""), let close = value.dropFirst().firstIndex(of: "\"") else { return nil }
        return String(value[value.index(after: value.startIndex)..<close])
    }

    /// One `[[package]]` entry of a TOML lockfile (Cargo.lock, uv.lock): its name, its version
    /// with the line it is on, and its `source` line as written.
    package struct LockPackage {
        package var name: String?
        package var version: (line: Int, text: String)?
        package var source: String?
    }

    /// Every `[[package]]` entry of a TOML lockfile, read line by line (the files are generated
    /// and flat, and the version's line number is what a stale entry must be reported with).
    package static func lockPackages(_ lines: [String]) -> [LockPackage] {
        var entries: [LockPackage] = []
        var current: LockPackage?
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("[") {
                if let current { entries.append(current) }
                current = trimmed == "[[package]]" ? LockPackage() : nil
            } else if current != nil {
                if let value = tomlString(line, key: "name") {
                    current?.name = value
                } else if let value = tomlString(line, key: "version") {
                    current?.version = (index + 1, value)
                } else if trimmed.hasPrefix("source") {
                    current?.source = trimmed
                }
            }
        }
        if let current { entries.append(current) }
        return entries
    }

    // MARK: Cargo

    private static func cargo(manifest: URL, found: ManifestVersion, root: URL) throws -> [Companion] {
        let workspace = try CargoWorkspace.load(containing: manifest, projectRoot: root)
        let location = url(found.foundIn, root: root)
        let names = Set(
            workspace.packages.filter { $0.versionFile?.path == location.path && $0.versionLine == found.line }.map(
                \.name))
        guard !names.isEmpty else { return [] }
        var companions: [Companion] = []
        let lock = workspace.root.appendingPathComponent("Cargo.lock")
        if let lines = lines(of: lock) {
            let shown = display(lock, root: root)
            // The workspace's own packages are the entries without a `source` (registry, git).
            for entry in lockPackages(lines) where entry.source == nil {
                guard let name = entry.name, names.contains(name), let (line, text) = entry.version else { continue }
                companions.append(
                    Companion(
                        kind: .cargoLock, file: shown, line: line, text: text, what: "Cargo.lock entry of `\(name)`"))
            }
        }
        for file in workspace.manifests {
            companions += requirements(in: file, on: names, root: root)
        }
        return companions
    }

    private static let dependencyTables = ["dependencies", "dev-dependencies", "build-dependencies"]

    /// `version` requirements of path dependencies on the crates in `names`, inline
    /// (`core = { path = "…", version = "0.15.1" }`) or as a `[dependencies.core]` table.
    package static func requirements(in manifest: URL, on names: Set<String>, root: URL) -> [Companion] {
        guard let lines = lines(of: manifest) else { return [] }
        let shown = display(manifest, root: root)
        var companions: [Companion] = []
        var inlineTable = false
        var block: (name: String, package: String?, version: (Int, String)?, hasPath: Bool)?
        func flushBlock() {
            if let current = block, current.hasPath, let (line, text) = current.version {
                let crate = current.package ?? current.name
                if names.contains(crate), let companion = requirement(text, crate: crate, file: shown, line: line) {
                    companions.append(companion)
                }
            }
            block = nil
        }
        // An inline table being read (`core = { … }`, or over lines as TOML 1.1 allows): its key,
        // its fields so far, and the line its `version` is on.
        var open: (key: String, fields: [String: String], versionLine: Int?)?
        /// Feeds `code`, the open table's text on line `number`, and at its `}` takes the requirement.
        func read(_ code: Substring, line number: Int) {
            guard var current = open else { return }
            let close = code.lastIndex(of: "}")
            for (key, value) in inlineFields(String(code[..<(close ?? code.endIndex)])) {
                current.fields[key] = value
                if key == "version" { current.versionLine = number }
            }
            open = close == nil ? current : nil
            guard close != nil, current.fields["path"] != nil, let version = current.fields["version"],
                let versionLine = current.versionLine
            else { return }
            let crate = current.fields["package"] ?? current.key
            if names.contains(crate), let companion = requirement(version, crate: crate, file: shown, line: versionLine) {
                companions.append(companion)
            }
        }
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if open != nil {
                read(Substring(Self.withoutComment(trimmed)), line: index + 1)
                continue
            }
            if trimmed.hasPrefix("[") {
                flushBlock()
                let header = String(trimmed.dropFirst().prefix(while: { $0 != "]" })).trimmingCharacters(
                    in: .whitespaces)
                inlineTable = dependencyTables.contains { header == $0 || header.hasSuffix("." + $0) }
                if !inlineTable, let dot = header.lastIndex(of: "."),
                    dependencyTables.contains(where: { header[..<dot] == $0 || header[..<dot].hasSuffix("." + $0) })
                {
                    block = (
                        String(header[header.index(after: dot)...]).replacingOccurrences(of: "\"", with: ""), nil, nil,
                        false
                    )
                }
                continue
            }
            if block != nil {
                if let value = tomlString(line, key: "version") { block?.version = (index + 1, value) }
                if let value = tomlString(line, key: "package") { block?.package = value }
                if trimmed.hasPrefix("path") && trimmed.dropFirst(4).trimmingCharacters(in: .whitespaces).hasPrefix("=")
                {
                    block?.hasPath = true
                }
                continue
            }
            let code = Self.withoutComment(trimmed)
            guard inlineTable, let equals = code.firstIndex(of: "="), let brace = code.firstIndex(of: "{"),
                equals < brace
            else { continue }
            let key = code[..<equals].trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\"", with: "")
            open = (key, [:], nil)
            read(code[code.index(after: brace)...], line: index + 1)
        }
        flushBlock()
        return companions
    }

    /// A TOML line without its comment: the text before a `#` outside a string.
    private static func withoutComment(_ line: String) -> String {
        var quote: Character?
        for position in line.indices {
            let c = line[position]
            if let open = quote {
                if c == open { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "#" {
                return String(line[..<position])
            }
        }
        return line
    }

    /// The string fields of a one-line inline table (`path = "x", version = "1"`).
    private static func inlineFields(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        var rest = Substring(body)
        while let equals = rest.firstIndex(of: "=") {
            let key = rest[..<equals].trimmingCharacters(in: CharacterSet(charactersIn: " ,\t\""))
            rest = rest[rest.index(after: equals)...].drop(while: { $0 == " " || $0 == "\t" })
            if rest.first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") {
                fields[key] = String(rest[rest.index(after: rest.startIndex)..<close])
                rest = rest[rest.index(after: close)...]
            } else {
                // Not a string (a bool, an array): skip to the next comma at this level.
                var depth = 0
                var cut = rest.endIndex
                for position in rest.indices {
                    let c = rest[position]
                    if c == "[" || c == "{" {
                        depth += 1
                    } else if c == "]" || c == "}" {
                        depth -= 1
                    } else if c == ",", depth == 0 {
                        cut = position; break
                    }
                }
                rest = rest[cut...]
            }
        }
        return fields
    }

    /// A requirement relctl keeps following: an operator of `=`, `^`, `~` or none, then a version
    /// (`0.15.1`, `0.15`, `1`); ranges (`>=1, <2`) and wildcards are left to their author.
    private static func requirement(_ raw: String, crate: String, file: String, line: Int) -> Companion? {
        var text = Substring(raw.trimmingCharacters(in: .whitespaces))
        var op = ""
        if let first = text.first, "=^~".contains(first) {
            op = String(first)
            text = text.dropFirst().drop(while: { $0 == " " })
        }
        let core = text.prefix(while: { $0 != "-" && $0 != "+" })
        let numbers = core.split(separator: ".", omittingEmptySubsequences: false)
        guard !numbers.isEmpty, numbers.count <= 3,
            numbers.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            core.count == text.count || numbers.count == 3
        else { return nil }
        return Companion(
            kind: .cargoRequirement, file: file, line: line, text: String(text),
            what: "requirement on `\(crate)`", requirementOperator: op)
    }

    // MARK: npm

    private static let npmDependencyTables = [
        "dependencies", "optionalDependencies", "peerDependencies", "devDependencies",
    ]

    private static func npm(manifest: URL, root: URL) -> [Companion] {
        guard let data = (try? ProjectFile.open(location: manifest))?.data() else { return [] }
        let text = TextFile.decode(data)
        let scan = JSONStringLines(text)
        guard let name = scan.entry(at: ["name"])?.value else { return [] }
        var companions = pins(
            in: scan, prefix: [], own: name, file: display(manifest, root: root),
            version: scan.entry(at: ["version"])?.value)
        let workspace = workspaceLock(of: manifest, root: root)
        companions += workspace
        // A package-lock.json npm never reads is no companion: a workspace member's (npm installs
        // from the workspace's lock: lit's stale packages/labs/cli-localize/package-lock.json), or
        // one beside a `packageManager` that is not npm (zustand's, committed by mistake under pnpm).
        let manager = scan.entry(at: ["packageManager"])?.value
        // A member's own relctl.toml has its folder as `root`: the workspace's lock is looked for
        // up to the repository's top (read only, to decide; its entry is the root config's to write).
        let top = Git.repositoryTop(of: root.standardizedFileURL.path).flatMap { AbsolutePath(absolute: $0)?.url } ?? root
        let inWorkspace = !workspace.isEmpty || (top != root && !workspaceLock(of: manifest, root: top).isEmpty)
        let npmReadsIt = !inWorkspace && (manager.map { $0.hasPrefix("npm@") } ?? true)
        let lock = manifest.deletingLastPathComponent().appendingPathComponent("package-lock.json")
        if npmReadsIt, let lockData = (try? ProjectFile.open(location: lock))?.data() {
            let lockScan = JSONStringLines(TextFile.decode(lockData))
            let shown = display(lock, root: root)
            // lockfileVersion 1 has only the top-level entry; 2 and 3 also `packages[""]`.
            if let top = lockScan.entry(at: ["version"]) {
                companions.append(
                    Companion(
                        kind: .npmLock, file: shown, line: top.line, text: top.value, what: "package-lock.json version",
                        column: top.column)
                )
            }
            if let entry = lockScan.entry(at: ["packages", "", "version"]) {
                companions.append(
                    Companion(
                        kind: .npmLock, file: shown, line: entry.line, text: entry.value,
                        what: "package-lock.json packages[\"\"] version", column: entry.column))
            }
            companions += pins(in: lockScan, prefix: ["packages", ""], own: name, file: shown)
        }
        return companions
    }

    /// The package's entry in the lock of the npm workspace holding it (lerna's root
    /// `package-lock.json`, `packages["packages/lerna"].version`): the nearest folder above the
    /// manifest's, up to `root`, with a lock that has an entry for it.
    private static func workspaceLock(of manifest: URL, root: URL) -> [Companion] {
        let top = root.standardizedFileURL.path
        let folder = manifest.deletingLastPathComponent().standardizedFileURL.path
        guard folder.hasPrefix(top + "/") else { return [] }
        var parts = folder.dropFirst(top.count + 1).split(separator: "/").map(String.init)
        var relative: [String] = []
        while let last = parts.popLast() {
            relative.insert(last, at: 0)
            let lock = (parts + ["package-lock.json"]).joined(separator: "/")
            guard let file = try? ProjectFile.open(lock, in: root), file.isRegularFile, let data = file.data() else {
                continue
            }
            let key = relative.joined(separator: "/")
            let scan = JSONStringLines(TextFile.decode(data))
            guard let entry = scan.entry(at: ["packages", key, "version"]) else { return [] }
            return [
                Companion(
                    kind: .npmLock, file: lock, line: entry.line, text: entry.value,
                    what: "package-lock.json packages[\"\(key)\"] version", column: entry.column)
            ]
        }
        return []
    }

    /// Exact pins on the package's own per-platform packages (`"git-cliff-linux-x64": "2.6.1"`
    /// in `git-cliff`'s optionalDependencies): optional dependencies of the package's own scope whose
    /// names start with the package's own name and a dash; and, given the package's `version`, exact pins at that version on packages of its
    /// own npm scope (trpc's `"@trpc/server": "11.18.0"` in `@trpc/client`, released in lockstep).
    private static func pins(
        in scan: JSONStringLines, prefix: [String], own name: String, file: String, version: String? = nil
    ) -> [Companion] {
        let bare = name.split(separator: "/").last.map(String.init) ?? name
        let scope = name.hasPrefix("@") ? name.split(separator: "/").first.map { $0 + "/" } : nil
        return scan.entries.compactMap { entry in
            guard entry.path.count == prefix.count + 2, Array(entry.path.prefix(prefix.count)) == prefix,
                npmDependencyTables.contains(entry.path[prefix.count])
            else { return nil }
            let dependency = entry.path[prefix.count + 1]
            let dependencyBare = dependency.split(separator: "/").last.map(String.init) ?? dependency
            let dependencyScope =
                dependency.hasPrefix("@") ? dependency.split(separator: "/").first.map { $0 + "/" } : nil
            let sibling = scope.map { dependency.hasPrefix($0) && dependency != name } == true && entry.value == version
            // A platform package is optional and of the package's own scope: date-fns' devDependency
            // `@date-fns/date-fns-scripts` (0.0.6) is a tool, and `bump --write` wrote date-fns'
            // version into it.
            let platform =
                dependencyBare.hasPrefix(bare + "-") && dependencyScope == scope
                && entry.path[prefix.count] == "optionalDependencies"
            guard platform || sibling, (try? SemanticVersion(parsing: entry.value)) != nil
            else {
                return nil
            }
            return Companion(
                kind: .npmPin, file: file, line: entry.line, text: entry.value, what: "pin on `\(dependency)`")
        }
    }

    // MARK: uv

    /// PEP 503 name normalisation, as uv compares names.
    package static func normalisedName(_ name: String) -> String {
        var out = ""
        var lastWasSeparator = false
        for c in name.lowercased() {
            if "-_.".contains(c) {
                if !lastWasSeparator { out.append("-") }
                lastWasSeparator = true
            } else {
                out.append(c)
                lastWasSeparator = false
            }
        }
        return out
    }

    private static func python(manifest: URL, root: URL) -> [Companion] {
        guard let document = try? TOMLDocument(file: ProjectFile.open(location: manifest)),
            let name = document.root["project"]?.table?["name"]?.string
        else { return [] }
        let projectFolder = manifest.deletingLastPathComponent().standardizedFileURL
        // The lock sits next to the project or at a uv workspace root above it.
        var folder = projectFolder
        var lock: URL?
        while folder.path.hasPrefix(root.standardizedFileURL.path) {
            let candidate = folder.appendingPathComponent("uv.lock")
            if FileSystem.exists(candidate) { lock = candidate; break }
            if folder.path == root.standardizedFileURL.path || folder.path == "/" { break }
            folder = folder.deletingLastPathComponent()
        }
        guard let lock, let lines = lines(of: lock) else { return [] }
        let shown = display(lock, root: root)
        let wanted = normalisedName(name)
        var companions: [Companion] = []
        // The project's own entry is the editable (or virtual) one whose path is the project.
        for entry in lockPackages(lines) {
            guard let entryName = entry.name, normalisedName(entryName) == wanted, let (line, text) = entry.version,
                let source = entry.source, let path = editablePath(source),
                lock.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL.path
                    == projectFolder.path
            else { continue }
            companions.append(
                Companion(kind: .uvLock, file: shown, line: line, text: text, what: "uv.lock entry of `\(entryName)`"))
        }
        return companions
    }

    /// The path of `source = { editable = "." }` or `{ virtual = "." }`, or nil.
    private static func editablePath(_ line: String) -> String? {
        guard let open = line.firstIndex(of: "{"), let close = line.lastIndex(of: "}") else { return nil }
        let fields = inlineFields(String(line[line.index(after: open)..<close]))
        return fields["editable"] ?? fields["virtual"]
    }
}
