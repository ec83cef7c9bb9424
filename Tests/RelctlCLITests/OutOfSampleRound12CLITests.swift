import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the twelfth out-of-sample round of the back-test found (session 70: aws-lambda-rust-runtime,
/// mise, towncrier, …), each on a generated repository of the shape that was read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound12CLITests {
    /// aws-lambda-rust-runtime's Cargo workspace: the crate `lambda_runtime` lives in
    /// `lambda-runtime/` and is tagged `lambda-runtime-0.11.1`, its name spelled with dashes.
    /// init wrote `{member}-{version}` alone, and plan found no release of it (current null,
    /// proposing the manifest's version again under the tag `lambda_runtime-0.11.0`).
    @Test func aCrateTaggedWithItsNameSpelledWithDashesIsReleasedByThoseTags() throws {
        let repo = try GitRepository()
        let crate = { (name: String, version: String) in MonorepoShapesCLITests.crate(name, version) }
        try repo.commit(
            "first",
            files: [
                "Cargo.toml": "[workspace]\nmembers = [\"lambda-runtime\", \"lambda-extension\"]\n",
                "lambda-runtime/Cargo.toml": crate("lambda_runtime", "0.11.0"), "lambda-runtime/src/lib.rs": "\n",
                "lambda-extension/Cargo.toml": crate("lambda-extension", "0.10.0"),
                "lambda-extension/src/lib.rs": "\n",
            ])
        try repo.git("tag", "lambda-runtime-0.11.0")
        try repo.git("tag", "lambda-extension-0.10.0")
        try repo.commit("fix: trace id", files: ["lambda-runtime/src/lib.rs": "// fixed\n"])

        let (config, members) = try BacktestFindingsCLITests.initialisedPlan(repo)
        #expect(config.contains("lambda_runtime = \"lambda-runtime-{version}\""), "\(config)")
        let runtime = try #require(members.first { $0["name"] as? String == "lambda_runtime" }, "\(members)")
        #expect(
            runtime["current"] as? String == "0.11.0" && runtime["tag"] as? String == "lambda-runtime-0.11.1",
            "\(members)")
    }
}
