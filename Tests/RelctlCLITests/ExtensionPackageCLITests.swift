import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Examples/relctl-gradle builds its own relctl from the libraries with one more manifest reader
/// (the public extension API). Built here, then run on a project whose version lives in
/// gradle.properties, side by side with the stock relctl, which does not know that file.
@Suite("An extension package", .serialized, .removesTemporaries)
struct ExtensionPackageCLITests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A scratch folder of its own next to .build (git-ignored), kept between runs so only the
    /// first build is slow; `swift test`'s own build holds .build's lock meanwhile.
    static func buildExample() throws -> URL {
        let scratch = root.appendingPathComponent(".build-examples")
        let package = root.appendingPathComponent("Examples/relctl-gradle")
        let build = try run("swift", ["build", "--package-path", package.path, "--scratch-path", scratch.path])
        try #require(build.status == 0, "\(build)")
        return scratch.appendingPathComponent("debug/relctl-gradle")
    }

    /// A git project whose version lives in gradle.properties.
    static func gradleProject(kind: String?, properties: String) throws -> GitRepository {
        let repository = try GitRepository()
        let kindLine = kind.map { "kind = \"\($0)\"\n" } ?? ""
        try repository.commit(
            "start",
            files: [
                "relctl.toml": "[project]\nname = \"gradle-app\"\n[[version]]\npath = \"gradle.properties\"\n\(kindLine)",
                "gradle.properties": properties,
            ])
        return repository
    }

    @Test func theExtendedRelctlReadsItsOwnManifestKind() throws {
        let binary = try Self.buildExample()
        let repository = try Self.gradleProject(kind: nil, properties: "org.gradle.jvmargs=-Xmx2g\nversion=1.2.3\n")

        let matching = try run(binary.path, ["validate-tag", "v1.2.3"], in: repository.url)
        #expect(matching.status == 0, "\(matching)")

        let mismatch = try run(binary.path, ["validate-tag", "v1.3.0"], in: repository.url)
        #expect(mismatch.status == 1, "\(mismatch)")
        #expect(mismatch.stderr.contains("gradle.properties"), "\(mismatch)")
        #expect(mismatch.stderr.contains("1.2.3"), "\(mismatch)")

        // The same command line otherwise: its version output and its other commands.
        let version = try run(binary.path, ["--version"], in: repository.url)
        #expect(version.stdout.hasPrefix("relctl "), "\(version)")

        // The stock relctl does not know the kind: bad input naming the file.
        let stock = try relctl(["validate-tag", "v1.2.3"], in: repository.url)
        #expect(stock.status == 2, "\(stock)")
        #expect(stock.stderr.contains("gradle.properties"), "\(stock)")
    }

    @Test func aReaderWithoutItsVersionLineIsBadInputNamingTheFile() throws {
        let binary = try Self.buildExample()
        let repository = try Self.gradleProject(kind: "gradle", properties: "org.gradle.jvmargs=-Xmx2g\n")
        let result = try run(binary.path, ["validate-tag", "v1.2.3"], in: repository.url)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("gradle.properties: has no `version=` line"), "\(result)")
    }
}
