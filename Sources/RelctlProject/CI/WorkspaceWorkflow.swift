import Foundation
import RelctlBasics
import RelctlChanges
import RelctlModel

/// What a workspace's pipeline builds: the members whose manifests hold an untagged version
/// (what `relctl release --pending` will release), and one build per pending member and target.
/// `relctl ci pending` prints it; the generated workflow's plan job hands it to the build jobs.
package struct WorkspaceBuildMatrix: Sendable, Equatable {
    package struct Member: Sendable, Equatable, Encodable {
        package var name: String
        package var path: String
        package var tag: String
    }

    /// One build job: a member's target, and where its build leaves the binaries (relative to
    /// the workspace root), which the release job hands back to `release --artifacts`.
    package struct Build: Sendable, Equatable, Encodable {
        package var member: String
        package var path: String
        package var tag: String
        package var target: String
        package var runner: String
        package var os: String
        package var arch: String
        package var binaries: String
    }

    package var pending: [Member]
    package var builds: [Build]

    package static func compute(config: RelctlConfig, git: Git) async throws -> WorkspaceBuildMatrix {
        let members = try await ProjectModel.members(of: config, git: git)
        var matrix = WorkspaceBuildMatrix(pending: [], builds: [])
        for (member, found) in try await PendingRelease.members(members, git: git) {
            guard case .pending(let version, let tag, _) = found else { continue }
            matrix.pending.append(Member(name: member.name, path: member.path, tag: tag))
            let names = ReleaseNames(project: member.name, version: version.description, tag: tag)
            for target in try TargetResolver.resolveAll(member.config) {
                let settings = member.config.targets.first { $0.triple == target.triple }
                let template = settings?.binaryDirectory ?? member.config.build.binaryDirectory
                let binaries = HistoryPaths(
                    folder: member.path + "/" + template.render(names.placeholders(for: target)))
                matrix.builds.append(
                    Build(
                        member: member.name, path: member.path, tag: tag, target: target.triple, runner: target.runner,
                        os: target.os, arch: target.arch, binaries: binaries.folder))
            }
        }
        return matrix
    }

    /// `NAME=VALUE` lines for `$GITHUB_OUTPUT`: `pending` (the member names, JSON), `builds`
    /// (`true` when there is a build job; GitHub refuses an empty matrix, so the job is skipped)
    /// and `matrix` (`{"include":[…]}`), each one line.
    package var githubOutput: String {
        get throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let names = String(decoding: try encoder.encode(pending.map(\.name)), as: UTF8.self)
            let include = String(decoding: try encoder.encode(["include": builds]), as: UTF8.self)
            return "pending=\(names)\nbuilds=\(!builds.isEmpty)\nmatrix=\(include)\n"
        }
    }
}

/// The GitHub Actions workflow of a `[workspace]`: on every push to a release branch, a plan job
/// finds the pending members (`relctl ci pending`), one build job per pending member and target
/// builds on its runner, and one release job releases every pending member together with
/// `relctl release --pending --push --publish --artifacts DIR` (each member through the
/// normal pipeline from the binaries the build jobs made, the tags pushed in one atomic push).
/// The release pull request (`relctl bump --write`, merged) is what makes a member pending.
package enum WorkspaceWorkflow {
    package static func body(config: RelctlConfig) -> String {
        var y = YAMLLines()
        y.add("name: Release")
        y.blank()
        y.add("on:")
        y.add("  push:")
        y.add("    branches:")
        for branch in config.release.branches { y.add("      - \(YAMLLines.quote(branch))") }
        y.blank()
        y.add("permissions:")
        y.add("  contents: read # checkout only; jobs get nothing more unless they say so")
        y.blank()
        y.add("concurrency:")
        y.add("  group: release-${{ github.ref }}")
        y.add("  cancel-in-progress: false")
        y.blank()
        y.add("defaults:")
        y.add("  run:")
        y.add("    shell: bash")
        y.blank()
        y.add("jobs:")
        planJob(&y, config: config)
        buildJob(&y, config: config)
        releaseJob(&y, config: config)
        return y.text
    }

    private static func planJob(_ y: inout YAMLLines, config: RelctlConfig) {
        y.add("  plan:")
        y.add("    name: Plan")
        y.add("    runs-on: \(CIRunners.coordinator)")
        y.add("    outputs:")
        y.add("      pending: ${{ steps.pending.outputs.pending }}")
        y.add("      builds: ${{ steps.pending.outputs.builds }}")
        y.add("      matrix: ${{ steps.pending.outputs.matrix }}")
        y.add("    steps:")
        // The tags say what is released already.
        ReleaseWorkflow.checkout(&y, fullHistory: true)
        ReleaseWorkflow.setup(&y, config: config, job: .plan)
        ReleaseWorkflow.step(
            &y, name: "Find the pending members", id: "pending",
            run: ["relctl ci pending --format github >> \"$GITHUB_OUTPUT\""])
        y.blank()
    }

    private static func buildJob(_ y: inout YAMLLines, config: RelctlConfig) {
        y.add("  build:")
        y.add("    name: Build ${{ matrix.member }} ${{ matrix.target }}")
        y.add("    needs: plan")
        y.add("    if: needs.plan.outputs.builds == 'true'")
        y.add("    runs-on: ${{ matrix.runner }}")
        y.add("    strategy:")
        y.add("      fail-fast: false")
        y.add("      matrix: ${{ fromJSON(needs.plan.outputs.matrix) }}")
        y.add("    env:")
        // Matrix values reach scripts only through the environment, never by template expansion.
        y.add("      MEMBER_PATH: ${{ matrix.path }}")
        y.add("      TAG: ${{ matrix.tag }}")
        y.add("      TARGET: ${{ matrix.target }}")
        y.add("      BINARIES: ${{ matrix.binaries }}")
        y.add("    steps:")
        ReleaseWorkflow.checkout(&y, fullHistory: false)
        ReleaseWorkflow.setup(&y, config: config, job: .build)
        ReleaseWorkflow.step(
            &y, name: "Build", run: ["cd \"$MEMBER_PATH\"", "relctl build --target \"$TARGET\" --tag \"$TAG\""])
        // Kept under their workspace path (outside the checkout, which the release needs clean),
        // so the artifacts merge into one tree that `release --artifacts` reads member by member.
        ReleaseWorkflow.step(
            &y, name: "Keep the binaries",
            run: [
                "mkdir -p \"$RUNNER_TEMP/prebuilt/$BINARIES\"",
                "cp -R \"$BINARIES/.\" \"$RUNNER_TEMP/prebuilt/$BINARIES/\"",
            ])
        y.add("      - name: Upload the binaries")
        y.add("        uses: \(ReleaseWorkflow.uploadArtifact) \(ReleaseWorkflow.pinComment)")
        y.add("        with:")
        y.add("          name: prebuilt-${{ matrix.tag }}-${{ matrix.target }}")
        y.add("          path: ${{ runner.temp }}/prebuilt")
        y.add("          if-no-files-found: error")
        y.blank()
    }

    private static func releaseJob(_ y: inout YAMLLines, config: RelctlConfig) {
        y.add("  release:")
        y.add("    name: Release")
        y.add("    needs: [plan, build]")
        // Runs when something is pending and every build passed, or there was no build to run.
        y.add(
            "    if: ${{ !cancelled() && needs.plan.result == 'success' && needs.plan.outputs.pending != '[]' && (needs.build.result == 'success' || needs.build.result == 'skipped') }}"
        )
        y.add("    runs-on: \(CIRunners.coordinator)")
        y.add("    permissions:")
        y.add("      contents: write # push the members' tags, publish their releases")
        y.add("    steps:")
        ReleaseWorkflow.checkout(&y, fullHistory: true)
        ReleaseWorkflow.setup(&y, config: config, job: .release)
        y.add("      - name: Download the binaries")
        y.add("        if: needs.plan.outputs.builds == 'true'")
        y.add("        uses: \(ReleaseWorkflow.downloadArtifact) \(ReleaseWorkflow.pinComment)")
        y.add("        with:")
        y.add("          pattern: prebuilt-*")
        y.add("          path: ${{ runner.temp }}/prebuilt")
        y.add("          merge-multiple: true")
        let token = ["GITHUB_TOKEN": "${{ github.token }}"]
        ReleasePRWorkflow.pushWithJobToken(&y, env: token)
        ReleaseWorkflow.step(
            &y, name: "Release the pending members", env: token,
            run: [
                "artifacts=()",
                "if [ -d \"$RUNNER_TEMP/prebuilt\" ]; then artifacts=(--artifacts \"$RUNNER_TEMP/prebuilt\"); fi",
                "relctl release --pending --push --publish \"${artifacts[@]}\"",
            ])
    }
}
