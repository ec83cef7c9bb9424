import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// `check`, `plan` and `bump` read a workspace's members through one model (ProjectModel, issue
/// 54): the same members, the same rule for their files (the repository, not the workspace's
/// folder), the same refusals.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct ProjectModelCLITests {
    /// A workspace in a folder of a larger repository (`platform/`) whose member names the chart's
    /// appVersion three folders up: inside the repository, outside the workspace. `plan` read it;
    /// `check` refused it as outside the repository (exit 2) because it took the workspace's
    /// folder for the repository's top. Both read it now, and a file outside the repository is
    /// refused by both.
    @Test func checkReadsTheMembersAsPlanDoes() throws {
        let repository = try GitRepository()
        let member = """
            [project]
            name = "app"

            [[version]]
            path = "Cargo.toml"

            [[version]]
            path = "../../../charts/app/Chart.yaml"
            kind = "helm-app-version"

            """
        try repository.commit(
            "feat: start",
            files: [
                "charts/app/Chart.yaml": "apiVersion: v2\nname: app\nversion: 0.1.0\nappVersion: 1.0.0\n",
                "platform/relctl.toml": "[workspace]\nmembers = [\"services/*\"]\n",
                "platform/services/app/Cargo.toml": "[package]\nname = \"app\"\nversion = \"1.0.0\"\n",
                "platform/services/app/relctl.toml": member,
            ])
        let platform = repository.url.appendingPathComponent("platform")
        let (plan, members) = try MemberPlanDocument.run(in: platform)
        #expect(plan.status == 0 && members.map(\.name) == ["app"], "\(plan)")
        let check = try relctl(["check"], in: platform)
        #expect(check.status == 0, "\(check)")
        #expect(check.stderr.contains("member app (services/app/): 2 manifests"), "\(check)")

        // One folder further up is outside the repository: both refuse it, naming the path.
        let outside = member.replacingOccurrences(of: "../../../charts", with: "../../../../charts")
        try repository.commit("chore: too far", files: ["platform/services/app/relctl.toml": outside])
        let refusedCheck = try relctl(["check"], in: platform)
        let refusedPlan = try relctl(["plan"], in: platform)
        for refused in [refusedCheck, refusedPlan] {
            #expect(refused.status == 2 && refused.stderr.contains("leads outside the repository"), "\(refused)")
        }
    }
}
