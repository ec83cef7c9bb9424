import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject
@testable import RelctlRelease

/// An installer that could never work is not written (issue 26, item 15).
@Suite("Installer archive names", .timeLimit(.minutes(30)), .removesTemporaries)
struct InstallerArchiveNameTests {
    @Test("a project named `my app` gets no installer, exit 2, and nothing is written", arguments: ["my app", "app*"])
    func unsafeNames(project: String) throws {
        try withTemporaryDirectory { directory in
            let config = try ConfigLoader.parse(
                try TOMLDocument(
                    text: """
                        [project]
                        name = "velo"
                        [[target]]
                        triple = "x86_64-unknown-linux-musl"
                        """, path: "relctl.toml"), root: directory.url)
            var manifest = ReleaseManifest(project: project, tag: "v1.0.0", version: "1.0.0", commit: "abc")
            manifest.artifacts = [
                .init(
                    name: "\(project)-v1.0.0-x86_64-unknown-linux-musl.tar.gz", target: "x86_64-unknown-linux-musl",
                    format: "tar.gz", size: 1, sha256: "00")
            ]
            let error = #expect(throws: InstallerError.self) {
                try InstallerWriter.write(
                    manifest: manifest, into: directory.url, shown: "dist", config: config, keysRoot: directory.url,
                    repository: "acme/app", remoteURL: nil, context: Context(workingDirectory: directory.url))
            }
            #expect(error?.exitCode == .badInput)
            #expect(error?.message.contains("rename the project") == true, "\(String(describing: error?.message))")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        }
    }

    @Test("names relctl makes from ordinary projects, tags and targets pass")
    func ordinaryNames() {
        for name in ["velostream-v1.2.3+b7-x86_64-unknown-linux-musl.tar.gz", "vélo-1.0.0-aarch64-apple-darwin.zip"] {
            #expect(name.unicodeScalars.allSatisfy(InstallerWriter.isSafeInArchiveName), "\(name)")
        }
    }
}
