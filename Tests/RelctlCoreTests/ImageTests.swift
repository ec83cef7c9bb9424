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

@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct ImageTests {
    @Test func referencesFollowDockerRules() throws {
        let short = try ImageReference(parsing: "alpine")
        #expect(
            short.registry == "docker.io" && short.repository == "library/alpine"
                && short.apiHost == "registry-1.docker.io")
        let local = try ImageReference(parsing: "localhost:5000/acme/app:1.0")
        #expect(
            local.registry == "localhost:5000" && local.repository == "acme/app" && local.tag == "1.0"
                && local.isLoopback)
        let pinned = try ImageReference(parsing: "ghcr.io/acme/base@sha256:" + String(repeating: "ab", count: 32))
        #expect(pinned.digest?.count == 71 && !pinned.isLoopback)
        #expect(try ImageReference(parsing: "127.0.0.9:80/x").isLoopback)
        #expect(!(try ImageReference(parsing: "128.0.0.1:80/x").isLoopback))
        #expect(throws: ImageReferenceError.self) { try ImageReference(parsing: "ghcr.io/Acme/app") }
        #expect(throws: ImageReferenceError.self) { try ImageReference(parsing: "ghcr.io:99999/acme/app") }
        #expect(throws: ImageReferenceError.self) { try ImageReference(parsing: "ghcr.io/acme/app@sha256:abc") }
        #expect(throws: ImageReferenceError.self) { try ImageReference(parsing: "ghcr.io/acme//app") }
    }

    @Test func platformsComeFromTriples() throws {
        func platform(_ triple: String) throws -> String? {
            ImagePlatform(target: try TargetResolver.resolve(TargetSettings(triple: triple)))?.description
        }
        #expect(try platform("x86_64-unknown-linux-musl") == "linux/amd64")
        #expect(try platform("aarch64-unknown-linux-gnu") == "linux/arm64/v8")
        #expect(try platform("armv7-unknown-linux-gnueabihf") == "linux/arm/v7")
        #expect(try platform("powerpc64le-unknown-linux-gnu") == "linux/ppc64le")
        #expect(try platform("x86_64-apple-darwin") == nil)
    }

    @Test func challengesAndTokensAreParsed() throws {
        let bearer = try #require(
            AuthChallenge(
                header: #"Bearer realm="https://ghcr.io/token",service="ghcr.io",scope="repository:acme/app:pull""#))
        #expect(
            bearer.scheme == "bearer" && bearer.realm == "https://ghcr.io/token"
                && bearer.parameters["service"] == "ghcr.io")
        #expect(bearer.parameters["scope"] == "repository:acme/app:pull")
        let basic = try #require(AuthChallenge(header: #"Basic realm="relctl \"test\"""#))
        #expect(basic.scheme == "basic" && basic.realm == #"relctl "test""#)
        #expect(AuthChallenge(header: nil) == nil)
        // A Docker-style JWT granting only pull.
        let claims = Data(#"{"access":[{"type":"repository","name":"acme/app","actions":["pull"]}]}"#.utf8)
            .base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(
                of: "/", with: "_")
        #expect(RegistryClient.actions(inToken: "e30.\(claims).sig", repository: "acme/app") == ["pull"])
        #expect(RegistryClient.actions(inToken: "opaque", repository: "acme/app") == nil)
    }

    @Test func prereleasesGetOnlyExactVersionTags() throws {
        let templates = [
            Template("{version}"), Template("latest"), Template("{major}.{minor}"), Template("v{version}-{project}"),
        ]
        let final = ImageRelease(tag: "v1.2.3", version: "1.2.3", commit: "", time: 0, source: nil)
        #expect(try final.tags(templates, project: "velo", image: "velo") == ["1.2.3", "latest", "1.2", "v1.2.3-velo"])
        let candidate = ImageRelease(tag: "v1.2.3-rc.1", version: "1.2.3-rc.1", commit: "", time: 0, source: nil)
        #expect(try candidate.tags(templates, project: "velo", image: "velo") == ["1.2.3-rc.1", "v1.2.3-rc.1-velo"])
        let build = ImageRelease(tag: "v1.2.3+b7", version: "1.2.3+b7", commit: "", time: 0, source: nil)
        #expect(try build.tags([Template("{version}")], project: "velo", image: "velo") == ["1.2.3_b7"])
    }

    @Test func dockerConfigAuthsAndHelpers() async throws {
        try await withTemporaryDirectory { directory in
            let auth = Data("ci:tok:en".utf8).base64EncodedString()
            try directory.write(
                "config.json",
                #"{"auths":{"https://ghcr.io":{"auth":"\#(auth)"},"quay.io":{"username":"u","password":"p"}},"credHelpers":{"registry.example.com":"relctlunit"}}"#
            )
            try directory.write(
                "bin/docker-credential-relctlunit",
                """
                #!/bin/sh
                read -r server
                printf '{"ServerURL":"%s","Username":"helper-user","Secret":"from-%s"}' "$server" "$server"
                """, executable: true)
            let credentials = DockerCredentials(environment: [
                "DOCKER_CONFIG": directory.path, "PATH": directory.url.appendingPathComponent("bin").path,
            ])
            #expect(
                try await credentials.lookup(registry: "ghcr.io")
                    == RegistryCredentials(username: "ci", password: "tok:en"))
            #expect(
                try await credentials.lookup(registry: "quay.io") == RegistryCredentials(username: "u", password: "p"))
            #expect(
                try await credentials.lookup(registry: "registry.example.com")
                    == RegistryCredentials(username: "helper-user", password: "from-registry.example.com"))
            #expect(try await credentials.lookup(registry: "docker.io") == nil)
        }
    }

    @Test func imageTablesGetTheirDefaults() throws {
        let config = try ConfigLoader.parse(
            try TOMLDocument(
                text: """
                    [project]
                    name = "velostream"
                    [build]
                    binaries = ["velo-sql", "velo-cli"]
                    [[target]]
                    triple = "x86_64-unknown-linux-musl"
                    [[target]]
                    triple = "aarch64-apple-darwin"
                    [[image]]
                    repository = "ghcr.io/acme/velostream"
                    [[image]]
                    name = "tools"
                    repository = "localhost:5000/acme/tools"
                    tags = ["{major}.{minor}", "{version}"]
                    binaries = ["velo-cli"]
                    user = "0:0"
                    base = "localhost:5000/base@sha256:\(String(repeating: "0", count: 64))"
                    """, path: "relctl.toml"), root: URL(fileURLWithPath: "/project"))
        let main = try #require(config.images.first)
        #expect(
            main.name == "velostream" && main.tags == ImageSettings.defaultTags && main.user == "65532:65532"
                && main.base == nil)
        #expect(main.imageBinaries(config.build.binaries) == ["velo-sql", "velo-cli"])
        let targets = try TargetResolver.resolveAll(config)
        #expect(main.selectTargets(targets).map(\.triple) == ["x86_64-unknown-linux-musl"])
        let tools = try #require(config.images.last)
        #expect(
            tools.name == "tools" && tools.tags.map(\.text) == ["{major}.{minor}", "{version}"] && tools.user == "0:0")
        #expect(tools.base?.registry == "localhost:5000" && tools.base?.repository == "base")
        #expect(tools.imageBinaries(config.build.binaries) == ["velo-cli"])
    }

    @Test func duplicateNamesAndTaggedRepositoriesAreRefused() throws {
        let text = """
            [project]
            name = "velostream"
            [build]
            binaries = ["velo-sql"]
            [[target]]
            triple = "x86_64-unknown-linux-musl"
            [[image]]
            repository = "ghcr.io/acme/velostream:latest"
            [[image]]
            repository = "ghcr.io/acme/other"
            tags = ["{nope}"]
            [[image]]
            repository = "ghcr.io/acme/third"
            """
        #expect(throws: ProblemList.self) {
            try ConfigLoader.parse(try TOMLDocument(text: text, path: "relctl.toml"), root: URL(fileURLWithPath: "/p"))
        }
        do {
            _ = try ConfigLoader.parse(
                try TOMLDocument(text: text, path: "relctl.toml"), root: URL(fileURLWithPath: "/p"))
        } catch let error as ProblemList {
            let lines = error.diagnostics.map(\.description)
            #expect(
                lines.contains {
                    $0.hasPrefix("relctl.toml:8:")
                        && $0.contains("must not carry a tag or digest; write `ghcr.io/acme/velostream`")
                }, "\(lines)")
            #expect(
                lines.contains { $0.hasPrefix("relctl.toml:11:") && $0.contains("unknown placeholder `{nope}`") },
                "\(lines)")
            #expect(
                lines.contains {
                    $0.hasPrefix("relctl.toml:12:") && $0.contains("two [[image]] tables are named `velostream`")
                }, "\(lines)")
        }
    }
}
