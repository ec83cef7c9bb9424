import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlBasics

/// The one rule for paths read from configuration, manifests and answers (issue 39, finding 6):
/// `ConfinedPath.resolveInside` on generated trees of links (relative, absolute, chains, `..`,
/// dangling, loops, a root reached through a link). Whatever the tree and the path, the result is
/// inside the root and holds no link, or the path is refused; where the kernel resolves the same
/// path (realpath(3), the independent judge) to a place, the rule lands on that same place or
/// refuses, and it always refuses when the kernel lands outside the root.
@Suite("one path rule", .timeLimit(.minutes(30)), .removesTemporaries)
struct ConfinedPathPropertyTests {
    /// SplitMix64: a small seeded generator, so a failing case can be replayed from its seed.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
        mutating func below(_ count: Int) -> Int { Int(next() % UInt64(count)) }
    }

    /// The kernel's answer, straight from libc.
    static func kernelPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// One generated tree under `base`: `root/` (folders, files, links) next to `outside/`, and
    /// `via-link`, a link to `root` used as the root's given path in half the cases.
    static func makeTree(in base: URL, _ random: inout Generator) throws -> [String] {
        let fileManager = FileManager.default
        let root = base.appendingPathComponent("root"), outside = base.appendingPathComponent("outside")
        try fileManager.createDirectory(at: outside.appendingPathComponent("deep"), withIntermediateDirectories: true)
        try Data("secret\n".utf8).write(to: outside.appendingPathComponent("secret"))
        var folders = [""]
        var names: [String] = []
        for index in 0..<(2 + random.below(4)) {
            let path = (random.pick(folders).isEmpty ? "" : random.pick(folders) + "/") + "d\(index)"
            try fileManager.createDirectory(at: root.appendingPathComponent(path), withIntermediateDirectories: true)
            folders.append(path)
            names.append(path)
        }
        for index in 0..<(1 + random.below(3)) {
            let folder = random.pick(folders)
            let path = (folder.isEmpty ? "" : folder + "/") + "f\(index)"
            try Data("file \(index)\n".utf8).write(to: root.appendingPathComponent(path))
            names.append(path)
        }
        let realRoot = kernelPath(base.path)! + "/root"
        var targets = [
            "..", "../..", "../../..", ".", "d0", "d0/..", "f0", "l0", "l1", "l2", "missing", "d1/../..",
            "../outside/secret", "../root/d0", "/etc", "/etc/hostname", outside.path, outside.path + "/deep",
            realRoot, realRoot + "/d0", realRoot + "/l1", base.path + "/via-link/d1", realRoot + "/../outside",
            "d0/../../outside",
        ]
        targets += names
        for index in 0..<(3 + random.below(5)) {
            let folder = random.pick(folders)
            let path = (folder.isEmpty ? "" : folder + "/") + "l\(index)"
            var target = random.pick(targets)
            // Sometimes a chain of steps, sometimes the link itself (a loop).
            if random.below(4) == 0 { target += "/" + random.pick(["..", "l0", "f0", "d1", "."]) }
            if random.below(10) == 0 { target = "l\(index)" }
            guard !fileManager.fileExists(atPath: root.appendingPathComponent(path).path),
                !isLink(root.path + "/" + path)
            else { continue }
            try fileManager.createSymbolicLink(
                atPath: root.appendingPathComponent(path).path, withDestinationPath: target)
            names.append(path)
        }
        try fileManager.createSymbolicLink(
            atPath: base.appendingPathComponent("via-link").path, withDestinationPath: "root")
        return names
    }

    @Test("every path resolves inside the root, with no link left, or is refused; never elsewhere")
    func resolverStaysInsideOnGeneratedTrees() throws {
        let seed = UInt64(0x3939_0006)
        var random = Generator(state: seed)
        var resolved = 0, refused = 0, agreed = 0
        for treeIndex in 0..<150 {
            try withTemporaryDirectory { directory in
                let names = try Self.makeTree(in: directory.url, &random)
                let realBase = Self.kernelPath(directory.path)!
                let realRoot = realBase + "/root"
                let givenRoot = directory.url.appendingPathComponent(random.below(2) == 0 ? "root" : "via-link")
                for _ in 0..<30 {
                    var parts: [String] = []
                    for _ in 0..<(1 + random.below(4)) {
                        parts.append(random.pick(names + ["..", ".", "missing", "l0", "l1"]))
                    }
                    var path = parts.joined(separator: "/")
                    if random.below(12) == 0 { path = givenRoot.path + "/" + path }
                    if random.below(30) == 0 { path = "/etc/hostname" }
                    let context = "seed \(seed), tree \(treeIndex), root \(givenRoot.lastPathComponent), path \(path)"
                    let kernel = Self.kernelPath(path.hasPrefix("/") ? path : givenRoot.path + "/" + path)
                    let kernelInside = kernel.map { $0 == realRoot || $0.hasPrefix(realRoot + "/") }
                    do {
                        let url = try ConfinedPath.resolveInside(path, root: givenRoot, what: "test")
                        resolved += 1
                        let result = url.path
                        #expect(
                            result == realRoot || result.hasPrefix(realRoot + "/"),
                            "outside the root: \(result); \(context)")
                        var walked = realRoot
                        for part in result.dropFirst(realRoot.count).split(separator: "/") {
                            walked += "/" + part
                            #expect(!Self.isLink(walked), "a link is left in \(result) at \(walked); \(context)")
                        }
                        if let kernel {
                            #expect(kernel == result, "the kernel reaches \(kernel), the rule \(result); \(context)")
                            agreed += 1
                        }
                    } catch let error as ConfinedPathError {
                        refused += 1
                        #expect(!error.diagnostics.isEmpty)
                    } catch {
                        Issue.record("a foreign error \(error); \(context)")
                    }
                    if kernelInside == false {
                        #expect(
                            (try? ConfinedPath.resolveInside(path, root: givenRoot, what: "test")) == nil,
                            "the kernel leaves the root (\(kernel ?? "")) and the rule did not refuse; \(context)")
                    }
                }
            }
        }
        // The generator reaches every side: paths kept, paths refused, and kept ones the kernel checked.
        #expect(
            resolved > 500 && refused > 500 && agreed > 300,
            "resolved \(resolved), refused \(refused), agreed \(agreed)")
    }

    @Test("a loop of links is refused after the kernel's own limit, naming the path")
    func loopsAreRefused() throws {
        try withTemporaryDirectory { directory in
            let root = directory.url
            try FileManager.default.createSymbolicLink(atPath: root.path + "/a", withDestinationPath: "b")
            try FileManager.default.createSymbolicLink(atPath: root.path + "/b", withDestinationPath: "a")
            #expect(throws: ConfinedPathError.self) { try ConfinedPath.resolveInside("a/x", root: root, what: "test") }
            do {
                _ = try ConfinedPath.resolveInside("a", root: root, what: "[[package]] files")
            } catch let error as ConfinedPathError {
                let text = error.diagnostics.map(\.message).joined()
                #expect(text.contains("[[package]] files") && text.contains("`a`") && text.contains("40"), "\(text)")
            }
        }
    }

    /// `ConfinedPath.resolve`, the rule for writes into a clone: a link anywhere on the way is
    /// refused, whether it leads to a folder, a file, nowhere, or stays inside (lstat(2), never
    /// stat(2): the mutation audit's confined-link mutant, stat, survived this suite).
    @Test("a write into a clone refuses a link on the way wherever it leads")
    func aWriteRefusesEveryLinkOnTheWay() throws {
        try withTemporaryDirectory { directory in
            let root = directory.url.appendingPathComponent("clone")
            let outside = directory.url.appendingPathComponent("outside")
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("inside"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
            try Data("x".utf8).write(to: outside.appendingPathComponent("file"))
            let links = [
                "Formula": outside.path, "bucket": outside.path + "/file", "dangling": outside.path + "/missing",
                "sideways": "inside",
            ]
            for (name, target) in links {
                try FileManager.default.createSymbolicLink(atPath: root.path + "/" + name, withDestinationPath: target)
            }
            for path in ["Formula/hello.rb", "bucket", "dangling", "sideways/hello.json"] {
                #expect(throws: ConfinedPathError.self, "\(path)") {
                    try ConfinedPath.resolve(path, in: root, what: "homebrew: tap")
                }
            }
            for path in ["inside/hello.rb", "new/hello.rb"] {
                #expect(try ConfinedPath.resolve(path, in: root, what: "test").path == root.path + "/" + path)
            }
        }
    }
}
