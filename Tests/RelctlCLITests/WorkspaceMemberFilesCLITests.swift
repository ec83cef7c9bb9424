import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// A member's files may be anywhere inside the repository (issue 54, item 8; the contract's
/// "Round 5 → Reading a project"): a `[[version]]` naming `../../charts/app/Chart.yaml` and an
/// `include` naming `../../proto/**` are the member's, never a place outside the repository.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct WorkspaceMemberFilesCLITests {
    static func cargo(_ version: String) -> String {
        "[package]\nname = \"app\"\nversion = \"\(version)\"\nedition = \"2021\"\n"
    }

    static func chart(appVersion: String) -> String {
        "apiVersion: v2\nname: app\ndescription: The app\nversion: 0.5.0\nappVersion: \"\(appVersion)\"\n"
    }

    /// A workspace of `crates/*` whose `app` crate has `memberConfig` as its relctl.toml, a chart
    /// and a proto folder outside every member, tagged `app-v1.0.0`.
    static func workspace(memberConfig: String) throws -> GitRepository {
        let repository = try GitRepository()
        try repository.commit(
            "chore: start",
            files: [
                "relctl.toml": "[workspace]\nmembers = [\"crates/*\"]\n",
                "crates/app/Cargo.toml": cargo("1.0.0"),
                "crates/app/src/main.rs": "fn main() {}\n",
                "crates/app/relctl.toml": memberConfig,
                "crates/lib/Cargo.toml": "[package]\nname = \"lib\"\nversion = \"0.2.0\"\nedition = \"2021\"\n",
                "charts/app/Chart.yaml": chart(appVersion: "1.0.0"),
                "proto/app.proto": "syntax = \"proto3\";\n",
            ])
        for tag in ["app-v1.0.0", "lib-v0.2.0"] { try repository.git("tag", "-a", tag, "-m", tag) }
        return repository
    }

    /// The documented chart case: the application's member names the chart's appVersion.
    @Test func bumpWriteUpdatesTheMembersManifestAndAChartElsewhereInTheRepository() throws {
        let repository = try Self.workspace(
            memberConfig: """
                [project]
                name = "app"

                [[version]]
                path = "Cargo.toml"

                [[version]]
                path = "../../charts/app/Chart.yaml"
                kind = "helm-app-version"

                """)
        try repository.commit("feat: app learns a trick", files: ["crates/app/src/main.rs": "fn main() { () }\n"])
        let plan = try MemberPlanDocument.run(in: repository.url)
        #expect(plan.result.status == 0, "\(plan.result)")
        #expect(plan.members.first { $0.name == "app" }?.next == "1.1.0", "\(plan.members)")
        let bumped = try relctl(["bump", "--write"], in: repository.url)
        #expect(bumped.status == 0, "\(bumped)")
        #expect(bumped.stdout == "app 1.1.0\n", "\(bumped)")
        #expect(try repository.directory.read("crates/app/Cargo.toml") == Self.cargo("1.1.0"))
        #expect(try repository.directory.read("charts/app/Chart.yaml") == Self.chart(appVersion: "1.1.0"))
        let validated = try relctl(["validate-tag", "app-v1.1.0"], in: repository.url.appendingPathComponent("crates/app"))
        #expect(validated.status == 0, "\(validated)")
    }

    /// A commit touching only `proto/` is a change of the member whose include names `../../proto/**`.
    @Test func planCountsACommitTouchingOnlyAnIncludeOutsideTheMembersFolder() throws {
        let repository = try Self.workspace(
            memberConfig: "[project]\nname = \"app\"\ninclude = [\"../../proto/**\"]\n")
        try repository.commit("fix: the proto's field", files: ["proto/app.proto": "syntax = \"proto3\";\n// x\n"])
        let plan = try MemberPlanDocument.run(in: repository.url)
        #expect(plan.result.status == 0, "\(plan.result)")
        let app = plan.members.first { $0.name == "app" }
        #expect(app?.next == "1.0.1" && app?.commits == 1 && app?.reason == "fix", "\(plan.members)")
        let lib = plan.members.first { $0.name == "lib" }
        #expect(lib?.next == nil && lib?.commits == 0, "\(plan.members)")
        let bumped = try relctl(["bump"], in: repository.url)
        #expect(bumped.status == 0 && bumped.stdout == "app 1.0.1\n", "\(bumped)")
    }

    /// The rule is the repository: a `../` path leaving it, or a link out of it, is refused (exit 2) naming it.
    @Test func aPathLeavingTheRepositoryIsRefusedNamingIt() throws {
        let outsideVersion = try Self.workspace(
            memberConfig: "[project]\nname = \"app\"\n\n[[version]]\npath = \"../../../outside/VERSION\"\nkind = \"plain\"\n"
        )
        try outsideVersion.commit("feat: more", files: ["crates/app/src/main.rs": "fn main() { () }\n"])
        for arguments in [["plan"], ["bump", "--write"]] {
            let refused = try relctl(arguments, in: outsideVersion.url)
            #expect(refused.status == 2, "\(arguments): \(refused)")
            #expect(refused.stderr.contains("../../../outside/VERSION"), "\(arguments): \(refused)")
            #expect(refused.stderr.contains("outside the repository"), "\(arguments): \(refused)")
        }
        #expect(try outsideVersion.directory.read("crates/app/Cargo.toml") == Self.cargo("1.0.0"))

        let outsideInclude = try Self.workspace(
            memberConfig: "[project]\nname = \"app\"\ninclude = [\"../../../elsewhere/**\"]\n")
        let refused = try relctl(["plan"], in: outsideInclude.url)
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains("../../../elsewhere/**"), "\(refused)")

        // A link inside the repository leading out of it stays refused.
        let elsewhere = try TemporaryDirectory(prefix: "relctl-elsewhere")
        try elsewhere.write("Chart.yaml", Self.chart(appVersion: "1.0.0"))
        let linked = try Self.workspace(
            memberConfig:
                "[project]\nname = \"app\"\n\n[[version]]\npath = \"../../charts/linked/Chart.yaml\"\nkind = \"helm-app-version\"\n"
        )
        try FileManager.default.createSymbolicLink(
            at: linked.url.appendingPathComponent("charts/linked"), withDestinationURL: elsewhere.url)
        try linked.commit("feat: a linked chart")
        let bumped = try relctl(["bump", "--write"], in: linked.url)
        #expect(bumped.status == 2, "\(bumped)")
        #expect(bumped.stderr.contains("charts/linked"), "\(bumped)")
        #expect(try elsewhere.read("Chart.yaml") == Self.chart(appVersion: "1.0.0"))
    }
}
