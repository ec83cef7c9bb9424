import Foundation
import RelctlBasics
import RelctlModel

/// The GitLab CI/CD pipeline of a `[workspace]` (`.gitlab-ci.yml`), the counterpart of
/// `WorkspaceWorkflow`: on every push to a release branch, a plan job finds the pending members
/// and writes the child pipeline that builds and releases them (`relctl ci pending --format
/// gitlab`), and a trigger job runs it (`trigger: include: artifact`, `strategy: depend`). GitLab
/// has no matrix computed at run time (`parallel: matrix` is fixed in the file), so the child
/// pipeline is GitLab's dynamic form of it: one build job per pending member and target, and one
/// release job releasing every pending member with `relctl release --pending --push --publish
/// --artifacts DIR`. docs/ci-gitlab.md describes it.
package enum GitLabWorkspacePipeline {
    /// The child pipeline the plan job writes and the trigger job runs.
    package static let childPath = "relctl-pending.yml"
    /// Where a build job keeps the binaries it made, under their workspace path (an artifact
    /// must be inside the project directory; the release job moves it out before releasing).
    package static let prebuilt = "relctl-prebuilt"

    // MARK: - The parent pipeline (`ci generate`)

    /// The pipeline without the generated-file header.
    package static func body(config: RelctlConfig) throws -> String {
        var y = YAMLLines()
        y.add("workflow:")
        y.add("  name: 'Release $CI_COMMIT_BRANCH'")
        y.add("  rules:")
        // Pushes to a release branch only: no tag, merge request or schedule pipeline.
        for branch in config.release.branches { y.add("    - if: \(YAMLLines.quote(branchRule(branch)))") }
        y.blank()
        y.add("stages:")
        for stage in ["plan", "release"] + (config.ci.releasePR ? ["release-pr"] : []) { y.add("  - \(stage)") }
        variables(&y, config: config)
        y.blank()
        y.add("plan:")
        y.add("  stage: plan")
        // The tags say what is released already.
        GitLabPipeline.linuxJob(&y, fullHistory: true)
        GitLabPipeline.script(
            &y,
            try GitLabPipeline.setup(config: config, job: .plan, shell: .bash) + [
                "relctl ci pending --format gitlab > \(childPath)",
                // The child pipeline in the log: what this push builds and releases.
                "cat \(childPath)",
            ])
        y.add("  artifacts:")
        y.add("    paths:")
        y.add("      - \(childPath)")
        y.blank()
        y.add("release:")
        y.add("  stage: release")
        y.add("  trigger:")
        y.add("    include:")
        y.add("      - artifact: \(childPath)")
        y.add("        job: plan")
        // The trigger job passes or fails with the child pipeline.
        y.add("    strategy: depend")
        if config.ci.releasePR {
            y.blank()
            y.add("release-pr:")
            y.add("  stage: release-pr")
            GitLabPipeline.linuxJob(&y, fullHistory: true)
            y.add("  resource_group: release-pr")
            GitLabPipeline.script(
                &y,
                try GitLabPipeline.setup(config: config, job: .release, shell: .bash) + [
                    GitLabPipeline.pushSetup, "relctl release-pr --forge gitlab",
                ])
        }
        return y.text
    }

    /// `$CI_COMMIT_BRANCH =~ /^main$/`: the branches GitHub's `on: push: branches` filter takes
    /// (`*` not crossing `/`, `**` any), every other character written as TagRegex writes it.
    package static func branchRule(_ branch: String) -> String {
        var pattern = ""
        var rest = Substring(branch)
        while let first = rest.first {
            if rest.hasPrefix("**") {
                pattern += ".*"
                rest = rest.dropFirst(2)
            } else if first == "*" {
                pattern += #"[^\x2F]*"#
                rest = rest.dropFirst()
            } else {
                pattern += TagRegex.escape(String(first))
                rest = rest.dropFirst()
            }
        }
        return "$CI_COMMIT_BRANCH =~ /^" + pattern + "$/"
    }

    private static func variables(_ y: inout YAMLLines, config: RelctlConfig) {
        guard config.ci.usesDefaultSetup else { return }
        y.blank()
        y.add("variables:")
        y.add("  RELCTL_INSTALL_VERSION: \(YAMLLines.quote(RelctlVersion.version))")
        y.add("  RELCTL_INSTALL_REPOSITORY: \(YAMLLines.quote(ReleaseWorkflow.relctlRepository))")
    }

    // MARK: - The child pipeline (`ci pending --format gitlab`)

    /// The pipeline of this push: one build job per pending member and target, then one release
    /// job; nothing pending is one job saying so (GitLab refuses a pipeline without jobs).
    package static func child(config: RelctlConfig, matrix: WorkspaceBuildMatrix) throws -> String {
        var y = YAMLLines()
        y.add("# Written by `relctl ci pending --format gitlab` in the plan job of .gitlab-ci.yml: the jobs")
        y.add("# that build and release this push's pending members.")
        if matrix.pending.isEmpty {
            y.add("stages:")
            y.add("  - release")
            y.blank()
            y.add("nothing-pending:")
            y.add("  stage: release")
            GitLabPipeline.linuxJob(&y, fullHistory: false)
            GitLabPipeline.script(
                &y, ["echo 'nothing pending: no member holds a version without its tag; nothing to release'"])
            return y.text
        }
        y.add("stages:")
        for stage in (matrix.builds.isEmpty ? [] : ["build"]) + ["release"] { y.add("  - \(stage)") }
        variables(&y, config: config)
        y.blank()
        for build in matrix.builds {
            try buildJob(&y, config: config, build: build)
            y.blank()
        }
        y.add("release:")
        y.add("  stage: release")
        GitLabPipeline.linuxJob(&y, fullHistory: true)
        if !matrix.builds.isEmpty {
            y.add("  needs:")
            for build in matrix.builds {
                y.add("    - job: \(YAMLLines.plainOrQuoted(buildJobName(build)))")
                y.add("      artifacts: true")
            }
        }
        // One release at a time: two pushes never race on the tags or the releases.
        y.add("  resource_group: release")
        GitLabPipeline.script(
            &y,
            try GitLabPipeline.setup(config: config, job: .release, shell: .bash) + [
                GitLabPipeline.pushSetup,
                [
                    // The release needs a clean checkout: the binaries go outside it first.
                    "artifacts=()",
                    "if [ -d \(prebuilt) ]; then",
                    "  kept=\"$(mktemp -d)\"",
                    "  mv \(prebuilt) \"$kept/\"",
                    "  artifacts=(--artifacts \"$kept/\(prebuilt)\")",
                    "fi",
                ].joined(separator: "\n"),
                "relctl release --pending --push --publish \"${artifacts[@]}\"",
            ])
        return y.text
    }

    /// `build:core:x86_64-unknown-linux-gnu`: member names and triples are checked names.
    package static func buildJobName(_ build: WorkspaceBuildMatrix.Build) -> String {
        "build:" + build.member + ":" + build.target
    }

    private static func buildJob(_ y: inout YAMLLines, config: RelctlConfig, build: WorkspaceBuildMatrix.Build) throws {
        let label = build.runner.lowercased()
        let runner: GitLabPipeline.Runner =
            label.contains("windows") ? .windows : label.contains("macos") ? .macOS : .linux
        y.add("\(YAMLLines.plainOrQuoted(buildJobName(build))):")
        y.add("  stage: build")
        switch runner {
        case .linux:
            GitLabPipeline.linuxJob(&y, fullHistory: false)
        case .macOS:
            y.add("  image: \(YAMLLines.quote(GitLabPipeline.macOSImage))")
            y.add("  tags:")
            y.add("    - \(GitLabPipeline.macOSTag)")
        case .windows:
            y.add("  tags:")
            y.add("    - \(GitLabPipeline.windowsTag)")
        }
        // The values reach the scripts only through the environment.
        y.add("  variables:")
        y.add("    MEMBER_PATH: \(YAMLLines.quote(build.path))")
        y.add("    TAG: \(YAMLLines.quote(build.tag))")
        y.add("    TARGET: \(YAMLLines.quote(build.target))")
        y.add("    BINARIES: \(YAMLLines.quote(build.binaries))")
        var lines = try GitLabPipeline.setup(config: config, job: .build, shell: runner.shell)
        switch runner.shell {
        case .bash:
            lines += [
                "cd \"$CI_PROJECT_DIR/$MEMBER_PATH\"",
                "relctl build --target \"$TARGET\" --tag \"$TAG\"",
                "mkdir -p \"$CI_PROJECT_DIR/\(prebuilt)/$BINARIES\"",
                "cp -R \"$CI_PROJECT_DIR/$BINARIES/.\" \"$CI_PROJECT_DIR/\(prebuilt)/$BINARIES/\"",
            ]
        case .powerShell:
            lines += [
                "Set-Location \"$env:CI_PROJECT_DIR/$env:MEMBER_PATH\"",
                "relctl build --target \"$env:TARGET\" --tag \"$env:TAG\"",
                "New-Item -ItemType Directory -Force -Path \"$env:CI_PROJECT_DIR/\(prebuilt)/$env:BINARIES\" | Out-Null",
                "Copy-Item -Recurse -Force \"$env:CI_PROJECT_DIR/$env:BINARIES/*\" \"$env:CI_PROJECT_DIR/\(prebuilt)/$env:BINARIES/\"",
            ]
        }
        GitLabPipeline.script(&y, lines)
        y.add("  artifacts:")
        y.add("    paths:")
        y.add("      - \(prebuilt)/")
    }
}
