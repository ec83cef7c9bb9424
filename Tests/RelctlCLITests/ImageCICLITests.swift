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

/// The generated workflow with an `[[image]]`: Linux build jobs hand over their binaries, the
/// release job logs in to GHCR with its own token (and only it gets `packages: write`), then
/// builds and pushes the images; actionlint and zizmor stay clean.
@Suite(.timeLimit(.minutes(45)), .removesTemporaries) struct ImageCICLITests {
    static let workflow = ".github/workflows/release.yml"

    @Test func releaseJobBuildsAndPushesTheImages() throws {
        try withTemporaryDirectory { dir in
            try MatrixFixtures.project(
                in: dir, targets: ["x86_64-unknown-linux-musl", "aarch64-unknown-linux-musl", "aarch64-apple-darwin"],
                build: "[build]\nbinaries = [\"demo\"]\nbinary-dir = \"target/{target}/release\"",
                extra: "[[image]]\nrepository = \"ghcr.io/acme/demo\"")
            let generated = try relctl(["ci", "generate"], in: dir.url)
            #expect(generated.status == 0, "\(generated)")
            let text = try dir.read(Self.workflow)
            #expect(
                text.contains("name: bin-${{ matrix.target }}")
                    && text.contains("target/${{ matrix.target }}/release/demo"), "\(text)")
            #expect(text.contains("if: contains(matrix.target, '-linux')"))
            #expect(
                text.components(separatedBy: "packages: write").count == 2, "packages: write on the release job only")
            let release = try #require(text.components(separatedBy: "  release:").last)
            #expect(
                release.contains("packages: write")
                    && release.contains("relctl image --tag \"$TAG\" --push --artifacts image-binaries"))
            #expect(try run("actionlint", ["-no-color", Self.workflow], in: dir.url).status == 0)
            let zizmor = try run(
                "zizmor", ["--offline", "--no-progress", "--persona", "pedantic", Self.workflow], in: dir.url)
            #expect(zizmor.status == 0, "\(zizmor)")
        }
    }

    @Test func binariesHandedOverPerTargetAreFound() throws {
        let fixture = try ImageFixture(repository: "ghcr.io/acme/velostream")
        // As the release job lays them out: image-binaries/<target>/<binary>.
        for triple in [ImageFixture.amd64, ImageFixture.arm64] {
            try FileManager.default.createDirectory(
                at: fixture.url.appendingPathComponent("image-binaries/\(triple)"), withIntermediateDirectories: true)
            for binary in ["velo-sql", "velo-cli"] {
                try FileManager.default.moveItem(
                    at: fixture.url.appendingPathComponent("target/\(triple)/release/\(binary)"),
                    to: fixture.url.appendingPathComponent("image-binaries/\(triple)/\(binary)"))
            }
        }
        let result = try relctl(["image", "--tag", "v1.0.0", "--artifacts", "image-binaries"], in: fixture.url)
        #expect(result.status == 0, "\(result)")
        let missing = try relctl(["image", "--tag", "v1.0.0"], in: fixture.url)
        #expect(missing.status == 2 && missing.stderr.contains("not found; run `relctl build"), "\(missing)")
    }
}
