import Foundation
import RelctlBasics
import RelctlModel

/// The Go modules inside a Go module's folder: each folder holding its own `go.mod` is another
/// module (the go tool never builds it as part of the enclosing one), so its commits are not the
/// enclosing module's changes. zap's `exp/` (tagged `exp/v0.3.0`) and `tools/` (never tagged)
/// are such; opentelemetry-go's `bridge/opencensus/`, tagged with the root's own versions, is a
/// module released in lockstep with it, whose changes the root's release does carry.
package enum NestedGoModules {
    /// Folders never walked: `vendor`, `testdata` and hidden folders hold other code or fixtures;
    /// `node_modules` is a JavaScript tree. A folder starting with `_` is walked: the go tool
    /// ignores it, so a module there (validator's `_examples/validate_fn`, whose dependabot bumps
    /// made a root release) is not the root's code either.
    static func skipped(_ name: String) -> Bool {
        name == "vendor" || name == "testdata" || name == "node_modules" || name.hasPrefix(".")
    }

    /// How many folders the walk reads at most: a tree larger than this is read only that far.
    package static let maximumFolders = 20_000

    /// The folders below `root` (relative, never `root` itself) holding a `go.mod`, sorted. Links
    /// are never followed.
    package static func folders(root: URL) -> [String] {
        var found: [String] = []
        var queue = [""]
        var next = 0
        while next < queue.count, next < maximumFolders {
            let folder = queue[next]
            next += 1
            let url = folder.isEmpty ? root : root.appendingPathComponent(folder)
            try? FileSystem.forEachName(in: url) { name in
                let path = folder.isEmpty ? name : folder + "/" + name
                if name == "go.mod", !folder.isEmpty {
                    found.append(folder)
                    return
                }
                guard !skipped(name) else { return }
                if FileSystem.statusIfPresent(atPath: root.appendingPathComponent(path).path, followingLinks: false)?
                    .isDirectory == true
                {
                    queue.append(path)
                }
            }
        }
        return found.sorted()
    }

    /// The nested modules whose commits are not the root module's, each with why: those with no
    /// tag naming the root's latest version in their own series (`exp/v{version}`). With no
    /// release of the root yet, every nested module is its own.
    package static func ownLines(root: URL, tags: Set<String>, latest: SemanticVersion?) -> [(folder: String, why: String)] {
        partition(root: root, tags: tags, latest: latest).own
    }

    /// The nested modules split in two: `own`, those on versions of their own (as `ownLines`), and
    /// `lockstep`, those tagged with the root's latest version in their own series
    /// (`extra/redisotel/v9.22.0` beside go-redis' `v9.22.0`): released with the root, each needing
    /// its own tag, since the go tool resolves a nested module only by a tag naming its folder.
    package static func partition(root: URL, tags: Set<String>, latest: SemanticVersion?)
        -> (own: [(folder: String, why: String)], lockstep: [String])
    {
        var own: [(folder: String, why: String)] = []
        var lockstep: [String] = []
        let replaced = locallyReplaced(root: root)
        let built = releaserBuilds(root: root)
        for folder in folders(root: root) where !own.contains(where: { folder.hasPrefix($0.folder + "/") }) {
            if let latest, tags.contains("\(folder)/v\(latest)") {
                lockstep.append(folder)
                continue
            }
            let released = tags.contains { $0.hasPrefix(folder + "/v") }
            // An untagged module the root's go.mod replaces with its folder is built into the
            // root's release (external-secrets' 61 `replace … => ./providers/v1/…`): its commits
            // are the root's changes.
            if !released, replaced.contains(folder) { continue }
            // An untagged module the root's GoReleaser builds (chroma's `dir: ./cmd/chroma`) is
            // shipped by the root's release: its commits are the root's changes.
            if !released, built.contains(where: { $0 == folder || $0.hasPrefix(folder + "/") }) { continue }
            own.append((folder, released ? "tagged \(folder)/vX.Y.Z" : "untagged"))
        }
        return (own, lockstep)
    }

    /// The folders GoReleaser's configuration at the root builds from (`dir: ./cmd/chroma`, or
    /// `main: ./cmd/tool` with no `dir`), relative to the root, without `./` or a trailing `/`.
    static func releaserBuilds(root: URL) -> Set<String> {
        var folders: Set<String> = []
        for name in [".goreleaser.yml", ".goreleaser.yaml", "goreleaser.yml", "goreleaser.yaml"] {
            guard let data = (try? ProjectFile.open(name, in: root))?.data(limit: 1 << 20), case .whole(let bytes) = data
            else { continue }
            for match in TextFile.decode(bytes).matches(of: #/(?m)^\s*-?\s*(?:dir|main):\s*["']?\.?\/?([A-Za-z0-9_./-]+?)\/?["']?\s*$/#) {
                var folder = String(match.1)
                if folder.hasSuffix(".go") { folder = String(folder.split(separator: "/").dropLast().joined(separator: "/")) }
                if !folder.isEmpty, folder != ".", !folder.split(separator: "/").contains("..") { folders.insert(folder) }
            }
        }
        return folders
    }

    /// The folders the root's go.mod `replace` directives point at (`=> ./apis`), relative to
    /// the root, without `./` or a trailing `/`.
    static func locallyReplaced(root: URL) -> Set<String> {
        guard let data = (try? ProjectFile.open("go.mod", in: root))?.data(limit: 1 << 20), case .whole(let bytes) = data
        else { return [] }
        var folders: Set<String> = []
        for match in TextFile.decode(bytes).matches(of: #/=>\s*\.\/([^\s]+)/#) {
            var folder = String(match.1)
            while folder.hasSuffix("/") { folder.removeLast() }
            if !folder.isEmpty, !folder.split(separator: "/").contains("..") { folders.insert(folder) }
        }
        return folders
    }
}
