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

/// A `credHelpers` value is a name docker looks up on PATH, never a path to run (issue 26, item 4).
@Suite("Credential helper names", .timeLimit(.minutes(30)), .removesTemporaries)
struct CredentialHelperNameTests {
    @Test("a helper value holding a path runs nothing and is refused as a bad Docker config")
    func pathInHelperNameIsRefused() async throws {
        try await withTemporaryDirectory { directory in
            try directory.write(
                "evil/prog",
                """
                #!/bin/sh
                touch "\(directory.path)/RAN"
                printf '{"Username":"u","Secret":"s"}'
                """, executable: true)
            try FileManager.default.createDirectory(
                at: directory.url.appendingPathComponent("bin"), withIntermediateDirectories: true)
            try directory.write(
                "config.json", #"{"credHelpers":{"registry.example.com":"x/../../evil/prog"}}"#)
            let credentials = DockerCredentials(environment: [
                "DOCKER_CONFIG": directory.path, "PATH": directory.url.appendingPathComponent("bin").path,
            ])
            let error = await #expect(throws: ImageError.self) {
                try await credentials.lookup(registry: "registry.example.com")
            }
            #expect(error?.exitCode == .badInput)
            #expect(error?.message.contains("x/../../evil/prog") == true)
            #expect(!directory.exists("RAN"))
        }
    }

    @Test("names docker would look up on PATH pass; paths and odd characters do not")
    func helperNameTable() {
        for name in ["desktop", "osxkeychain", "ecr-login", "gcloud", "acr-env", "pass", "secretservice", "a.b_c"] {
            #expect(DockerCredentials.isHelperName(name), "\(name)")
        }
        for name in ["", ".", "..", "x/../y", "/usr/bin/id", "a b", "a\nb", "é", "x\\y", "a\u{0}b"] {
            #expect(!DockerCredentials.isHelperName(name), "\(name)")
        }
    }
}
