import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlDistribution
import RelctlModel

/// The GitLab CI/CD release pipeline for a project (`.gitlab-ci.yml`): on a tag of the project's
/// format only, plan → one build job per target → merge (checksums, channels, signature, notes)
/// → publish to GitLab; a tag-only project gets one release job. Artifacts go from job to job
/// with `artifacts:` and `needs:`. The text depends only on the config and relctl's version, so
/// regenerating is byte-identical. docs/ci-gitlab.md describes it.
package enum GitLabPipeline {
    /// GitLab reads this file unless the project's CI/CD settings name another.
    package static let path = ".gitlab-ci.yml"

    /// The runners and images the jobs use (CIRunners, beside GitHub's runner choice).
    package static let linuxImage = CIRunners.GitLab.linuxImage
    package static let macOSTag = CIRunners.GitLab.macOSTag
    package static let macOSImage = CIRunners.GitLab.macOSImage
    package static let windowsTag = CIRunners.GitLab.windowsTag
    /// GitLab's default limit of `needs:` entries in one job.
    package static let maximumNeeds = 50

    /// Where a build job runs on GitLab, from the target's GitHub runner label.
    package enum Runner: Equatable {
        case linux, macOS, windows

        package init(_ target: Target) {
            let label = target.runner.lowercased()
            self = label.contains("windows") ? .windows : label.contains("macos") ? .macOS : .linux
        }

        /// Scripts run in bash (Linux image, macOS shell executor) or PowerShell (Windows).
        package var shell: Shell { self == .windows ? .powerShell : .bash }
    }

    /// The shell a job's script lines are written for.
    package enum Shell {
        case bash, powerShell

        /// `"$CI_COMMIT_TAG"` as an argument: the tag reaches the command through the
        /// environment, never pasted into the script.
        package var tag: String { self == .bash ? "\"$CI_COMMIT_TAG\"" : "\"$env:CI_COMMIT_TAG\"" }

        /// Sets an environment variable to a literal value: single-quoted by the shell's emitter,
        /// so neither GitLab nor the shell expands a `$` in it, and PowerShell's typographic
        /// quotes (U+2018–U+201B) are doubled like `'` (issue 39, finding 4).
        package func export(_ name: String, literal value: String) throws -> String {
            switch self {
            case .bash: try ShellEmitter.export(name, value, what: "[[ci.setup]] env `\(name)`")
            case .powerShell:
                try PowerShellEmitter.environmentAssignment(name, value, what: "[[ci.setup]] env `\(name)`")
            }
        }

        /// Sets an environment variable to another one's value (a masked CI/CD variable).
        package func export(_ name: String, from variable: String) throws -> String {
            switch self {
            case .bash: try ShellEmitter.export(name, fromVariable: variable)
            case .powerShell: try PowerShellEmitter.environmentAssignment(name, fromVariable: variable)
            }
        }
    }

    // MARK: - Problems

    /// What the pipeline cannot do as configured. Errors (a GitHub action or `if` expression in
    /// `[[ci.setup]]`, which GitLab cannot run) stop `ci generate --provider gitlab` and fail
    /// `check`; warnings say what a job will do differently from the GitHub workflow.
    package static func problems(config: RelctlConfig) -> [Diagnostic] {
        // The GitHub workflow's problems carry the same warning; `check` and `ci generate` say it once.
        var found = ReleaseWorkflow.jobsWithoutSetup(config: config) + RelctlInstallMode.gitLabProblems(config: config)
        // The GitHub workflow's problems carry the same warning when both are generated.
        if !config.ci.providers.contains(.github) { found += CIToolchain.problems(config: config) }
        for (index, step) in config.ci.setupSteps.enumerated() {
            let label = "[[ci.setup]] step \(index + 1)"
            if case .uses(let action) = step.body {
                found.append(
                    Diagnostic(
                        file: config.path,
                        "\(label) (`uses = \"\(action.text)\"`) is a GitHub action, which GitLab CI cannot run; for `[ci] providers` with \"gitlab\", write the setup as `run` lines"
                    ))
            }
            if step.condition != nil {
                found.append(
                    Diagnostic(
                        file: config.path,
                        "\(label) has `if`, a GitHub Actions expression GitLab CI cannot evaluate; for `[ci] providers` with \"gitlab\", test the condition in the `run` lines instead (e.g. `if [ \"$(uname -s)\" = Darwin ]; then …`)"
                    ))
            }
        }
        let workflow = config.ci.workflow.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
        if config.ci.providers.contains(.github), workflow == path {
            found.append(
                Diagnostic(
                    file: config.path,
                    "`ci.workflow` is \(path), the file the GitLab pipeline is written to; with both providers in `[ci] providers`, point `ci.workflow` at another file (e.g. `.github/workflows/release.yml`)"
                ))
        }
        let targets = (try? TargetResolver.resolveAll(config)) ?? []
        for target in targets where Runner(target) == .windows {
            let message =
                config.ci.usesDefaultSetup
                ? "its GitLab build job runs on \(windowsTag), where the default relctl setup cannot work (it builds relctl with Swift on Linux and macOS only); set [ci] setup to install relctl there (PowerShell lines), or build the target on a Linux runner (`runner = \"ubuntu-latest\"` with a cross build)"
                : "its GitLab build job runs on \(windowsTag), whose shell is PowerShell: the [ci] setup lines run there as PowerShell"
            found.append(Diagnostic(file: config.path, "\(target.triple): \(message)", severity: .warning))
        }
        if !config.images.isEmpty {
            found.append(
                Diagnostic(
                    file: config.path,
                    "the GitLab pipeline does not build the [[image]] container images; add a job that runs `relctl image --tag \"$CI_COMMIT_TAG\" --push` (docs/ci-gitlab.md)",
                    severity: .warning))
        }
        // GitLab's default limit on `needs:` per job (ci_needs_size_limit).
        if targets.count > maximumNeeds {
            found.append(
                Diagnostic(
                    file: config.path,
                    "the GitLab merge job needs one build job per target, \(targets.count) in all, and GitLab allows \(maximumNeeds) `needs` per job by default; a self-managed instance can raise the limit (ci_needs_size_limit), GitLab.com cannot",
                    severity: .warning))
        }
        if config.ci.attest {
            found.append(
                Diagnostic(
                    file: config.path,
                    "[ci] attest adds GitHub build-provenance attestations, which the GitLab pipeline has no equivalent of; it applies to the GitHub workflow only",
                    severity: .warning))
        }
        return found
    }

    // MARK: - Rendering

    /// The complete file, header included.
    package static func render(config: RelctlConfig) throws -> String {
        GeneratedFile.render(
            header: GeneratedFile.header(command: "relctl ci generate --provider gitlab", config: config),
            body: try body(config: config))
    }

    /// The pipeline without the generated-file header.
    package static func body(config: RelctlConfig) throws -> String {
        var y = YAMLLines()
        let tagOnly = config.targets.isEmpty
        y.add("workflow:")
        y.add("  name: 'Release $CI_COMMIT_TAG'")
        y.add("  rules:")
        // Tag pipelines of the project's tag format only: no branch, merge request or schedule.
        y.add("    - if: \(YAMLLines.quote(TagRegex.rule(for: config.project.tagFormat)))")
        if config.ci.releasePR { y.add("    - if: \(YAMLLines.quote(releasePRRule))") }
        y.blank()
        y.add("stages:")
        let stages = tagOnly ? ["release"] : ["plan", "build", "merge", "publish"]
        for stage in (config.ci.releasePR ? ["release-pr"] : []) + stages { y.add("  - \(stage)") }
        if config.ci.usesDefaultSetup {
            y.blank()
            y.add("variables:")
            y.add("  RELCTL_INSTALL_VERSION: \(YAMLLines.quote(RelctlVersion.version))")
            y.add("  RELCTL_INSTALL_REPOSITORY: \(YAMLLines.quote(ReleaseWorkflow.relctlRepository))")
        }
        y.blank()
        if tagOnly {
            try tagOnlyRelease(&y, config: config)
            try releasePRJob(&y, config: config)
            return y.text
        }
        let targets = (try? TargetResolver.resolveAll(config)) ?? []

        y.add("plan:")
        y.add("  stage: plan")
        tagPipelinesOnly(&y, config: config)
        linuxJob(&y, fullHistory: false)
        script(
            &y,
            try setup(config: config, job: .plan, shell: .bash) + [
                "relctl validate-tag \"$CI_COMMIT_TAG\"",
                // The build jobs below were generated from this matrix; printing it in the log shows what runs.
                "relctl matrix",
            ])
        y.blank()

        let packaged = Set(
            config.linuxPackages.flatMap { LinuxPackageBuilder.targets(of: $0, among: targets) }.map(\.triple))
        for target in targets {
            try buildJob(&y, config: config, target: target, linuxPackage: packaged.contains(target.triple))
            y.blank()
        }

        y.add("merge:")
        y.add("  stage: merge")
        tagPipelinesOnly(&y, config: config)
        linuxJob(&y, fullHistory: true)
        y.add("  needs:")
        for target in targets {
            y.add("    - job: \(YAMLLines.plainOrQuoted(buildJobName(target)))")
            y.add("      artifacts: true")
        }
        var merge = try setup(config: config, job: .release, shell: .bash)
        merge.append("relctl checksum dist")
        // Before signing: the installers and channel files are listed in SHA256SUMS, so they are
        // signed and published with the archives, as `relctl release` does.
        if config.installer.enabled { merge.append("relctl installer") }
        merge += channelLines(config: config)
        merge += signingLines(config: config)
        merge.append("relctl verify dist/SHA256SUMS")
        merge.append("relctl notes --tag \"$CI_COMMIT_TAG\" --output dist/RELEASE_NOTES.md")
        script(&y, merge)
        y.add("  artifacts:")
        y.add("    paths:")
        y.add("      - dist/")
        y.blank()

        y.add("publish:")
        y.add("  stage: publish")
        tagPipelinesOnly(&y, config: config)
        linuxJob(&y, fullHistory: false)
        y.add("  needs:")
        y.add("    - job: merge")
        y.add("      artifacts: true")
        // One publish at a time: two tags' jobs never interleave their requests.
        y.add("  resource_group: release")
        script(&y, try setup(config: config, job: .release, shell: .bash) + [publishLine])
        try releasePRJob(&y, config: config)
        return y.text
    }

    /// Nothing visible until every asset is uploaded and checked; a re-run finishes the same
    /// release. The job's CI_JOB_TOKEN (or a masked GITLAB_TOKEN) authenticates it.
    package static let publishLine = "relctl publish \"$CI_COMMIT_TAG\" --forge gitlab"

    /// `build:x86_64-unknown-linux-gnu`: triples are checked names (`[A-Za-z0-9_.-]`).
    package static func buildJobName(_ target: Target) -> String { "build:\(target.triple)" }

    private static func buildJob(_ y: inout YAMLLines, config: RelctlConfig, target: Target, linuxPackage: Bool) throws
    {
        let runner = Runner(target)
        let shell = runner.shell
        y.add("\(YAMLLines.plainOrQuoted(buildJobName(target))):")
        y.add("  stage: build")
        tagPipelinesOnly(&y, config: config)
        switch runner {
        case .linux:
            linuxJob(&y, fullHistory: false)
        case .macOS:
            y.add("  image: \(YAMLLines.quote(macOSImage))")
            y.add("  tags:")
            y.add("    - \(macOSTag)")
        case .windows:
            y.add("  tags:")
            y.add("    - \(windowsTag)")
        }
        y.add("  needs:")
        y.add("    - job: plan")
        y.add("      artifacts: false")
        y.add("  variables:")
        // For the setup lines, as the GitHub workflow's build job has it in `env`.
        y.add("    TARGET: \(YAMLLines.quote(target.triple))")
        var lines = try setup(config: config, job: .build, shell: shell)
        if CIToolchain.usesCargo(config) {
            lines += shell == .bash ? CIToolchain.rustupInstallLines : ["rustup target add $env:TARGET"]
        }
        if CIToolchain.usesGo(config), shell == .bash { lines += CIToolchain.goInstallLines }
        // Triples are checked names (`[A-Za-z0-9_.-]`), a bare word in both shells.
        let triple = try ShellEmitter.word(target.triple, what: "the target triple")
        lines.append("relctl build --target " + triple + " --tag " + shell.tag)
        lines.append("relctl package --tag " + shell.tag + " --target " + triple)
        if linuxPackage { lines.append("relctl linux-package --tag " + shell.tag + " --target " + triple) }
        script(&y, lines)
        y.add("  artifacts:")
        y.add("    paths:")
        var patterns =
            ArchiveFormats.ids.map { "dist/*.\($0)" } + ["dist/*.sha256", "dist/*\(SBOMBuilder.fileExtension)"]
        if linuxPackage { patterns += LinuxPackageFormats.ids.map { "dist/*.\($0)" } }
        // `relctl package` writes the npm packages, wheels and MSIs too; the publish job's
        // `relctl publish` sends them on (NPM_TOKEN, PYPI_TOKEN: masked CI/CD variables).
        patterns += ReleaseWorkflow.registryPackagePatterns(config: config)
        for pattern in patterns { y.add("      - \(YAMLLines.quote(pattern))") }
    }

    /// A project without `[[target]]` builds nothing: one job checks the tag, writes the notes
    /// and publishes them as the release, with no asset.
    private static func tagOnlyRelease(_ y: inout YAMLLines, config: RelctlConfig) throws {
        y.add("release:")
        y.add("  stage: release")
        tagPipelinesOnly(&y, config: config)
        linuxJob(&y, fullHistory: true)
        y.add("  resource_group: release")
        script(
            &y,
            try setup(config: config, job: .release, shell: .bash) + ["relctl validate-tag \"$CI_COMMIT_TAG\""]
                // A chart-only project (no [[target]]) ships its charts, as `relctl release` does.
                + (config.channels.charts.isEmpty ? [] : ["relctl chart --tag \"$CI_COMMIT_TAG\""]) + [
                    "relctl notes --tag \"$CI_COMMIT_TAG\" --output dist/RELEASE_NOTES.md",
                    publishLine,
                ])
    }

    /// The image of a Linux job, and for the jobs writing notes the whole history and every tag
    /// (GitLab clones shallow and fetches only the pipeline's own tag; notes need the previous one).
    package static func linuxJob(_ y: inout YAMLLines, fullHistory: Bool) {
        y.add("  image: \(YAMLLines.quote(linuxImage))")
        guard fullHistory else { return }
        y.add("  variables:")
        y.add("    GIT_DEPTH: '0'")
        y.add("    GIT_FETCH_EXTRA_FLAGS: '--prune --quiet --tags'")
    }

    /// `[[chart]]`, `[nix]`, `[homebrew]`, `[scoop]`, `[[channel]]`: written after SHA256SUMS,
    /// as the GitHub workflow's release job does. Channel names are checked (`[a-z0-9-]`).
    private static func channelLines(config: RelctlConfig) -> [String] {
        let channels = config.channels
        var lines: [String] = []
        if !channels.charts.isEmpty { lines.append("relctl chart --tag \"$CI_COMMIT_TAG\"") }
        var names: [String] = []
        if channels.nix { names.append(NixChannel.id) }
        if channels.homebrew != nil { names.append(HomebrewChannel.id) }
        if channels.scoop != nil { names.append(ScoopChannel.id) }
        names += channels.plugins.map(\.name)
        lines += names.map { "relctl channel \($0) --tag \"$CI_COMMIT_TAG\"" }
        return lines
    }

    /// `[sign]` keys come from CI/CD variables of relctl's names. A multi-line key cannot be a
    /// masked variable, so it may be a File variable instead (the variable then holds the file's
    /// path, which this reads). No line prints a value; GitLab echoes the lines as written.
    private static func signingLines(config: RelctlConfig) -> [String] {
        var variables: [String] = []
        if config.sign.sshKey != nil { variables.append(SigningKeys.sshKeyVariable) }
        if config.sign.minisignKey != nil { variables.append(SigningKeys.minisignKeyVariable) }
        guard !variables.isEmpty else { return [] }
        return variables.map { name in
            "if [ -f \"${\(name):-}\" ]; then \(name)=\"$(cat \"$\(name)\")\"; export \(name); fi"
        } + ["relctl sign dist/SHA256SUMS"]
    }

    /// The lines that put relctl on PATH in a job: `[[ci.setup]]` `run` steps of that job,
    /// `[ci] setup`, or the default (build relctl from source with Swift).
    package static func setup(config: RelctlConfig, job: CISetupStep.Job, shell: Shell) throws -> [String] {
        if !config.ci.setupSteps.isEmpty {
            return try config.ci.setupSteps.filter { $0.jobs.contains(job) }.compactMap { step -> String? in
                guard case .run(let lines) = step.body else { return nil }
                var item = try step.env.keys.sorted().map { try shell.export($0, literal: step.env[$0]!) }
                item += try step.secrets.keys.sorted().map { try shell.export($0, from: step.secrets[$0]!) }
                return (item + lines).joined(separator: "\n")
            }
        }
        if !config.ci.setup.isEmpty { return [config.ci.setup.joined(separator: "\n")] }
        switch shell {
        case .bash: return [defaultSetup.joined(separator: "\n")]
        case .powerShell:
            return [
                "Write-Output 'the default relctl setup builds relctl with Swift on Linux and macOS runners only; set [ci] setup in relctl.toml to install relctl on Windows'",
                "exit 1",
            ]
        }
    }

    /// The default setup: build relctl from source with Swift, at the version that generated the
    /// pipeline (`RELCTL_INSTALL_VERSION`), after the packages `RelctlBuildRequirements` lists.
    package static var defaultSetup: [String] {
        RelctlBuildRequirements.gitLabInstallLines + [
            "RELCTL_SOURCE=\"$(mktemp -d)/relctl\"",
            "git clone --quiet --depth 1 --branch \"v$RELCTL_INSTALL_VERSION\" \"$RELCTL_INSTALL_REPOSITORY\" \"$RELCTL_SOURCE\"",
            "swift build -c release --product relctl --package-path \"$RELCTL_SOURCE\"",
            "export PATH=\"$RELCTL_SOURCE/.build/release:$PATH\"",
        ]
    }

    /// `script:`, one item per command; an item holding line breaks is a literal block, so the
    /// shell gets exactly the lines the config holds.
    package static func script(_ y: inout YAMLLines, _ items: [String]) {
        y.add("  script:")
        for item in items {
            let lines = item.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
            // One line: a scalar, quoted wherever YAML 1.1 or 1.2 would read it as anything but
            // this text (`12:30`, `<<`, `yes`; issue 39, finding 15). Several: a literal block.
            guard lines.count > 1,
                let block = YAMLEmitter.literalBlock(lines.joined(separator: "\n") + "\n", parentColumn: 4)
            else {
                y.add("    - " + YAMLEmitter.scalar(item))
                continue
            }
            y.add("    - " + block.indicator)
            for line in block.lines { y.add(line) }
        }
    }
}

/// `[ci] release-pr = true`: the pipeline also runs on pushes to the default branch, where one
/// job releases what a merged release request raised and then opens or updates the next one;
/// every tag job keeps to tag pipelines.
extension GitLabPipeline {
    package static let releasePRRule = "$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH"

    /// The lines that let a branch pipeline's job push: the commit identity, GITLAB_TOKEN through
    /// a credential helper, origin over https, and the branch checked out (GitLab checks out the
    /// commit detached). Shared with a workspace's release jobs (GitLabWorkspacePipeline).
    package static let pushSetup = [
        "git config --global user.name \"${GITLAB_USER_NAME:-relctl}\"",
        "git config --global user.email \"${GITLAB_USER_EMAIL:-relctl@users.noreply.gitlab.com}\"",
        "git config --global credential.helper '!f() { echo username=oauth2; echo \"password=$GITLAB_TOKEN\"; }; f'",
        "git remote set-url origin \"$CI_PROJECT_URL.git\"",
        "git checkout -B \"$CI_COMMIT_BRANCH\" \"$CI_COMMIT_SHA\"",
    ].joined(separator: "\n")

    /// Under a job's `stage:`: with branch pipelines allowed, the tag jobs say they are tag-only.
    package static func tagPipelinesOnly(_ y: inout YAMLLines, config: RelctlConfig) {
        guard config.ci.releasePR else { return }
        y.add("  rules:")
        y.add("    - if: $CI_COMMIT_TAG")
    }

    /// Pushing needs a token with `write_repository` and `api` (a project access token in the
    /// masked variable GITLAB_TOKEN; CI_JOB_TOKEN cannot push). git reads it through a credential
    /// helper from the environment, so it is never on a command line or in the log.
    package static func releasePRJob(_ y: inout YAMLLines, config: RelctlConfig) throws {
        guard config.ci.releasePR else { return }
        y.blank()
        y.add("release-pr:")
        y.add("  stage: release-pr")
        linuxJob(&y, fullHistory: true)
        y.add("  rules:")
        y.add("    - if: \(YAMLLines.quote(releasePRRule))")
        // One at a time: two pushes in a row never race on the release branch or the tags.
        y.add("  resource_group: release-pr")
        script(
            &y,
            try setup(config: config, job: .release, shell: .bash) + [
                pushSetup,
                "relctl release --pending --push --publish",
                "relctl release-pr --forge gitlab",
            ])
    }
}
