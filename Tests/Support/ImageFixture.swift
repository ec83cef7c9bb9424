import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlChanges
import RelctlDistribution
import RelctlModel
import RelctlProject
import RelctlRelease

/// A git project shaped like the velostream example with an `[[image]]`: a real static amd64
/// executable (compiled from C here, so it runs in a scratch root), an arm64 stand-in file, and
/// a Windows target the image must leave out. Options vary what must not change the digests:
/// the umask, file times and the order files are created in.
public struct ImageFixture: Sendable {
    public let repository: GitRepository
    public var url: URL { repository.url }
    public static let amd64 = "x86_64-unknown-linux-musl"
    public static let arm64 = "aarch64-unknown-linux-musl"
    public static let windows = "x86_64-pc-windows-msvc"
    public static let greeting = "velo-sql serving"

    public static func config(
        repository: String, entrypoint: String = #"["velo-sql", "--serve"]"#, extra: String = ""
    ) -> String {
        PackagingFixture.configHead + """
            [[target]]
            triple = "\(amd64)"
            [[target]]
            triple = "\(arm64)"
            [[target]]
            triple = "\(windows)"

            [archive]
            files = ["README.md", "LICENSE"]

            [[image]]
            repository = "\(repository)"
            entrypoint = \(entrypoint)
            files = ["README.md", { from = "LICENSE", to = "LICENSE.txt" }]
            labels = { "org.opencontainers.image.licenses" = "Apache-2.0" }
            \(extra)
            """
    }

    /// Compiles a static C program once per test process; nil when no C compiler can link statically.
    public static let staticExecutable: Data? = {
        guard let directory = try? TemporaryDirectory(prefix: "relctl-cc") else { return nil }
        defer { directory.remove() }
        let source =
            "#include <stdio.h>\nint main(int argc, char **argv) { printf(\"\(greeting) %s\\n\", argc > 1 ? argv[1] : \"\"); return 0; }\n"
        guard (try? directory.write("main.c", source)) != nil else { return nil }
        for compiler in ["cc", "gcc", "clang"] {
            if let result = try? run(compiler, ["-static", "-O2", "-o", "velo-sql", "main.c"], in: directory.url),
                result.status == 0
            {
                return FileManager.default.contents(atPath: directory.url.appendingPathComponent("velo-sql").path)
            }
        }
        return nil
    }()

    public init(
        repository reference: String, entrypoint: String = #"["velo-sql", "--serve"]"#, extra: String = "",
        reversed: Bool = false, umask mask: mode_t = 0o022, fileTime: Date? = nil
    ) throws {
        repository = try GitRepository()
        let executable = Self.staticExecutable ?? Data("#!/bin/sh\necho \(Self.greeting)\n".utf8)
        var files: [(String, Data, Bool)] = [
            ("relctl.toml", Data(Self.config(repository: reference, entrypoint: entrypoint, extra: extra).utf8), false),
            ("Cargo.toml", Data("[package]\nname = \"velostream\"\nversion = \"1.0.0\"\n".utf8), false),
            ("README.md", Data("# velostream\n\nA streaming SQL engine.\n".utf8), false),
            ("LICENSE", Data("Apache License 2.0\n".utf8), false),
            (".gitignore", Data("target/\ndist/\n".utf8), false),
        ]
        for triple in [Self.amd64, Self.arm64] {
            let sql = triple == Self.amd64 ? executable : Data("arm64 velo-sql stand-in\n".utf8)
            files.append(("target/\(triple)/release/velo-sql", sql, true))
            files.append(("target/\(triple)/release/velo-cli", Data("velo-cli for \(triple)\n".utf8), true))
        }
        files.append(("target/\(Self.windows)/release/velo-sql.exe", Data("MZ".utf8), true))
        files.append(("target/\(Self.windows)/release/velo-cli.exe", Data("MZ".utf8), true))
        if reversed { files.reverse() }
        for (path, data, executable) in files {
            let file = url.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: file.path, contents: data) else {
                throw TestFailure("cannot write \(file.path)")
            }
            // As if created under `mask` (umask itself is process-wide, and other suites run meanwhile).
            chmod(file.path, (executable ? 0o777 : 0o666) & ~mask)
            if let fileTime {
                try FileManager.default.setAttributes([.modificationDate: fileTime], ofItemAtPath: file.path)
            }
        }
        try repository.commit("feat: velostream 1.0.0")
    }

    public var layout: URL { url.appendingPathComponent("dist/oci/velostream") }
}
