import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlDistribution
import RelctlModel

/// The GitHub Actions release workflow for a project: plan → build (one runner per target) → release,
/// or for a tag-only project (no `[[target]]`) one release job: check the tag, write the notes,
/// publish them. The text depends only on the config and relctl's version, so regenerating is
/// byte-identical.
public enum ReleaseWorkflow {
    /// Versions are tags, not commit SHAs: relctl generates the file offline and has no verified
    /// hashes to pin (see docs/matrix.md). All three are GitHub's own `actions/` on the node24 runtime.
    package static let checkout = "actions/checkout@v6"
    package static let uploadArtifact = "actions/upload-artifact@v6"
    package static let downloadArtifact = "actions/download-artifact@v7"
    /// `[ci] attest = true`: GitHub build-provenance attestations for every file in SHA256SUMS.
    package static let attestBuildProvenance = "actions/attest-build-provenance@v3"
    /// zizmor's `unpinned-uses` wants SHAs; the reason we use tags travels with each line.
    package static let pinComment =
        "# zizmor: ignore[unpinned-uses] -- version tag of GitHub's own action; relctl has no verified SHA to pin (docs/matrix.md)"
    /// Where the default setup fetches relctl's source (override with `[ci] setup`).
    package static var relctlRepository: String { RelctlVersion.repository }

    /// The default `[ci] setup`: build relctl from source with the runner's Swift, at the version
    /// that generated the workflow, after the system packages `RelctlBuildRequirements` lists.
    package static var defaultSetup: [String] { defaultSetup(CISettings()) }

    /// The default setup for `[ci] relctl`: built from source, or the published archive (which
    /// still needs the shared libraries relctl links, and with a key, minisign).
    package static func defaultSetup(_ ci: CISettings) -> [String] {
        let how = ci.relctl == .source ? "builds relctl with Swift" : "installs relctl's published archive"
        let windows = [
            "if [ \"$RUNNER_OS\" = Windows ]; then",
            "  echo \"::error::the default relctl setup \(how) on Linux and macOS runners only; set [ci] setup in relctl.toml to install relctl on Windows\"",
            "  exit 1",
            "fi",
        ]
        switch ci.relctl {
        case .source:
            return windows + RelctlBuildRequirements.runnerInstallLines + [
                "git clone --quiet --depth 1 --branch \"v$RELCTL_INSTALL_VERSION\" \"$RELCTL_INSTALL_REPOSITORY\" \"$RUNNER_TEMP/relctl\"",
                "swift build -c release --product relctl --package-path \"$RUNNER_TEMP/relctl\"",
                "echo \"$RUNNER_TEMP/relctl/.build/release\" >> \"$GITHUB_PATH\"",
            ]
        case .release:
            let minisign =
                ci.relctlMinisignKey == nil
                ? []
                : [
                    "if ! command -v minisign > /dev/null; then",
                    "  if [ \"$RUNNER_OS\" = Linux ]; then sudo \(RelctlBuildRequirements.aptGetInstall) minisign; else brew install minisign; fi",
                    "fi",
                ]
            return windows + RelctlBuildRequirements.runnerInstallLines + minisign
                + RelctlInstallMode.releaseInstallLines(minisignKey: ci.relctlMinisignKey)
        }
    }

    /// The complete file, header included.
    /// Jobs the generated workflow would run that cannot work as configured, for `ci generate`
    /// and `check` to say before a release fails on CI: a Windows runner with the default setup,
    /// which builds relctl with Swift on Linux and macOS runners only.
    public static func problems(config: RelctlConfig) -> [Diagnostic] {
        setupProblems(config: config) + windowsProblems(config: config) + RelctlInstallMode.problems(config: config)
            + CIToolchain.problems(config: config)
    }

    /// Actions that cache by default, with the input that turns it off: a release built from a
    /// cache another workflow (a pull request's) wrote can be poisoned, and zizmor says so
    /// (`cache-poisoning`) for a workflow that runs on tags.
    package static let cachingActions: [String: (input: String, off: String)] = [
        "actions/setup-node": ("package-manager-cache", "false"),
        "actions/setup-go": ("cache", "false"),
        "actions/cache": ("lookup-only", "true"),
        "swatinem/rust-cache": ("lookup-only", "true"),
        "actions-rust-lang/setup-rust-toolchain": ("cache", "false"),
        "astral-sh/setup-uv": ("enable-cache", "false"),
        "oven-sh/setup-bun": ("no-cache", "true"),
        "mlugg/setup-zig": ("use-cache", "false"),
        "jdx/mise-action": ("cache", "false"),
    ]

    /// `[[ci.setup]]` steps that cannot work or weaken the release: a local action that is not
    /// in the project (an error for `check`), an action that caches (a warning).
    package static func setupProblems(config: RelctlConfig) -> [Diagnostic] {
        var found = jobsWithoutSetup(config: config)
        for (index, setupStep) in config.ci.setupSteps.enumerated() {
            guard case .uses(let action) = setupStep.body else { continue }
            let label = "[[ci.setup]] step \(index + 1) (`uses = \"\(action.text)\"`)"
            switch action.kind {
            case .local(let path):
                let folder = config.root.appendingPathComponent(path)
                let files = ["action.yml", "action.yaml"].map { folder.appendingPathComponent($0).path }
                if !files.contains(where: { FileSystem.exists(atPath: $0) }) {
                    found.append(
                        Diagnostic(
                            file: config.path,
                            "\(label): \(path)/action.yml does not exist in the project; the step would fail on every runner (a local action is a folder of this repository holding action.yml)"
                        ))
                }
            case .repository(let owner, let repository, let path, _):
                let name = "\(owner)/\(repository)\(path.map { "/\($0)" } ?? "")".lowercased()
                guard let cache = cachingActions[name], setupStep.with[cache.input] != cache.off else { continue }
                found.append(
                    Diagnostic(
                        file: config.path,
                        "\(label) caches by default: a release built from a cache another workflow wrote can be poisoned (zizmor: cache-poisoning); add `with = { \(cache.input) = \(cache.off) }`",
                        severity: .warning))
            case .docker:
                continue
            }
        }
        return found
    }

    /// Every job runs relctl, so every job needs a `[[ci.setup]]` step that installs it (the
    /// GitLab pipeline's jobs map onto the same three: `merge` and `publish` are `release`).
    package static func jobsWithoutSetup(config: RelctlConfig) -> [Diagnostic] {
        guard !config.ci.setupSteps.isEmpty else { return [] }
        return jobs(of: config).filter { job in !config.ci.setupSteps.contains { $0.jobs.contains(job) } }.map { job in
            Diagnostic(
                file: config.path,
                "no [[ci.setup]] step runs in the `\(job.rawValue)` job (each step's `jobs` leaves it out), so relctl is not on PATH there and the job fails; add `\(job.rawValue)` to the `jobs` of the steps that install relctl",
                severity: .warning)
        }
    }

    /// The jobs the workflow has: a tag-only project builds nothing, so it has only `release`.
    package static func jobs(of config: RelctlConfig) -> [CISetupStep.Job] {
        config.targets.isEmpty ? [.release] : CISetupStep.Job.allCases
    }

    package static func windowsProblems(config: RelctlConfig) -> [Diagnostic] {
        guard config.ci.usesDefaultSetup, let targets = try? TargetResolver.resolveAll(config) else { return [] }
        return targets.filter { $0.runner.lowercased().contains("windows") }.map { target in
            Diagnostic(
                file: config.path,
                "\(target.triple): its build job runs on \(target.runner), where the default `Install relctl` step cannot "
                    + "work (it builds relctl with Swift on Linux and macOS runners only); set [ci] setup to install relctl "
                    + "there, or build the target on a Linux runner (`runner = \"ubuntu-latest\"` with a cross build)",
                severity: .warning)
        }
    }

    package static func render(config: RelctlConfig) -> String {
        GeneratedFile.render(
            header: GeneratedFile.header(command: "relctl ci generate", config: config), body: body(config: config))
    }

    /// Everything above the jobs: the tag-push trigger, read-only defaults, bash, `$TAG`.
    private static func preamble(_ y: inout YAMLLines, config: RelctlConfig) {
        y.add("name: Release")
        y.blank()
        y.add("on:")
        y.add("  push:")
        y.add("    tags:")
        y.add("      - \(YAMLLines.quote(TagGlob.pattern(for: config.project.tagFormat)))")
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
        // bash everywhere, Windows runners included, so every step reads the same.
        y.add("    shell: bash")
        y.blank()
        y.add("env:")
        y.add("  TAG: ${{ github.ref_name }}")
        y.blank()
        y.add("jobs:")
    }

    /// The workflow without the generated-file header.
    package static func body(config: RelctlConfig) -> String {
        var y = YAMLLines()
        preamble(&y, config: config)
        if config.targets.isEmpty {
            tagOnlyRelease(&y, config: config)
            return y.text
        }

        planJob(&y, config: config)
        buildJob(&y, config: config)
        releaseJob(&y, config: config)
        return y.text
    }

    /// `plan`: checks the tag and expands the target matrix the build jobs run.
    private static func planJob(_ y: inout YAMLLines, config: RelctlConfig) {
        y.add("  plan:")
        y.add("    name: Plan")
        y.add("    runs-on: \(CIRunners.coordinator)")
        y.add("    outputs:")
        y.add("      matrix: ${{ steps.matrix.outputs.matrix }}")
        y.add("    steps:")
        checkout(&y, fullHistory: false)
        setup(&y, config: config, job: .plan)
        validateTag(&y)
        step(
            &y, name: "Expand the target matrix", id: "matrix",
            run: [
                "matrix=\"$(relctl matrix --format github)\"",
                "echo \"matrix=$matrix\" >> \"$GITHUB_OUTPUT\"",
            ])
        y.blank()
    }

    /// `build`: one job per target, on its runner: build, package, upload the archives.
    private static func buildJob(_ y: inout YAMLLines, config: RelctlConfig) {
        y.add("  build:")
        y.add("    name: Build ${{ matrix.target }}")
        y.add("    needs: plan")
        y.add("    runs-on: ${{ matrix.runner }}")
        y.add("    strategy:")
        y.add("      fail-fast: false")
        y.add("      matrix: ${{ fromJSON(needs.plan.outputs.matrix) }}")
        y.add("    env:")
        // Matrix values reach scripts only through the environment, never by template expansion.
        y.add("      TARGET: ${{ matrix.target }}")
        y.add("    steps:")
        checkout(&y, fullHistory: false)
        setup(&y, config: config, job: .build)
        // GitHub's runners have rustup; the target's standard library is added per job.
        if CIToolchain.usesCargo(config) { step(&y, name: "Add the Rust target", run: [CIToolchain.rustTargetLine]) }
        step(&y, name: "Build", run: ["relctl build --target \"$TARGET\" --tag \"$TAG\""])
        step(&y, name: "Package", run: ["relctl package --tag \"$TAG\" --target \"$TARGET\""])
        linuxPackages(&y, config: config)
        y.add("      - name: Upload the archive")
        y.add("        uses: \(uploadArtifact) \(pinComment)")
        y.add("        with:")
        y.add("          name: dist-${{ matrix.target }}")
        y.add("          path: |")
        for pattern in ArchiveFormats.ids.map({ "dist/*.\($0)" }) + [
            "dist/*.sha256", "dist/*\(SBOMBuilder.fileExtension)",
        ] + (config.linuxPackages.isEmpty ? [] : LinuxPackageFormats.ids.map { "dist/*.\($0)" })
            + registryPackagePatterns(config: config)
        {
            y.add("            \(pattern)")
        }
        y.add("          if-no-files-found: error")
        if !config.images.isEmpty { uploadImageBinaries(&y, config: config) }
        y.blank()
    }

    /// `release`: the archives together: checksums, installers, channels, signatures,
    /// attestations, notes and the publish, then the images.
    private static func releaseJob(_ y: inout YAMLLines, config: RelctlConfig) {
        y.add("  release:")
        y.add("    name: Release")
        y.add("    needs: [plan, build]")
        y.add("    runs-on: \(CIRunners.coordinator)")
        y.add("    permissions:")
        y.add(
            "      contents: write # relctl publish: the release and its assets"
                + (publishesRepository(config) ? "; relctl repository --publish: the pages branch" : ""))
        if pushesToGHCR(config) { y.add("      packages: write # relctl image --push to ghcr.io with the job's token") }
        if config.ci.attest {
            y.add("      id-token: write # attest-build-provenance: the OIDC token Sigstore signs with")
            y.add("      attestations: write # attest-build-provenance: store the attestations")
        }
        y.add("    steps:")
        checkout(&y, fullHistory: true)
        setup(&y, config: config, job: .release)
        y.add("      - name: Download the archives")
        y.add("        uses: \(downloadArtifact) \(pinComment)")
        y.add("        with:")
        y.add("          pattern: dist-*")
        y.add("          path: dist")
        y.add("          merge-multiple: true")
        step(&y, name: "Write SHA256SUMS", run: ["relctl checksum dist"])
        if config.installer.enabled {
            // Before signing: the installers are added to SHA256SUMS, so they are signed and published.
            // [publish] github or GITHUB_REPOSITORY (set by Actions) gives them their download URL.
            step(&y, name: "Write the installers", run: ["relctl installer"])
        }
        channels(&y, config: config)
        signing(&y, config: config)
        step(&y, name: "Verify the checksums", run: ["relctl verify dist/SHA256SUMS"])
        if config.ci.attest {
            y.add("      - name: Attest build provenance")
            y.add("        uses: \(attestBuildProvenance) \(pinComment)")
            y.add("        with:")
            y.add("          subject-checksums: dist/SHA256SUMS")
        }
        notesAndPublish(&y, config: config)
        if publishesRepository(config) { publishRepository(&y, config: config) }
        if !config.images.isEmpty { pushImages(&y, config: config) }
    }

    /// The files `relctl package` writes beside the archives for `[npm]` (`.tgz`), `[pypi]`
    /// (`.whl`; their SBOMs are `.cdx.json`) and `[windows] msi = true` (`.msi`), which the build
    /// jobs hand to the release job with the archives; none without those tables, so other
    /// projects' workflows stay as they were.
    package static func registryPackagePatterns(config: RelctlConfig) -> [String] {
        (config.npm == nil ? [] : ["dist/*.tgz"]) + (config.pypi == nil ? [] : ["dist/*.whl"])
            + (config.windows.msi ? ["dist/*.msi"] : [])
    }

    /// The registry tokens `relctl publish` needs with `[npm]` (`NPM_TOKEN`) and `[pypi]`
    /// (`PYPI_TOKEN`), from the repository secrets of the same names, through `env:` only.
    package static func registryTokenSecrets(config: RelctlConfig) -> [String] {
        (config.npm == nil ? [] : ["NPM_TOKEN"]) + (config.pypi == nil ? [] : ["PYPI_TOKEN"])
    }

    /// Whether the release job publishes the signed APT/DNF repository: packages, `[apt]` or
    /// `[dnf]`, and `[repository] branch` to publish to (without a branch there is nowhere to
    /// serve it from; `relctl repository` still writes it locally).
    package static func publishesRepository(_ config: RelctlConfig) -> Bool {
        !config.linuxPackages.isEmpty && config.repositories.isEnabled && config.repositories.branch != nil
    }

    /// `relctl repository --tag TAG --publish` once the release is public (issue 56): the packages
    /// SHA256SUMS lists, added to the published repository (the branch, when the remote has it,
    /// checked out under the runner's temporary folder and given as `--previous`, so no published version is
    /// dropped; the first release makes the branch) and pushed to `[repository] branch`. A re-run
    /// of a failed job finishes it: the same inputs give the same bytes, and pushing them again is
    /// a no-op. The checkout keeps no credentials: git reads the job's token through a credential
    /// helper given in the step's environment (`GIT_CONFIG_*`), and the branch, folder and remote
    /// reach the script as variables, never pasted into it.
    private static func publishRepository(_ y: inout YAMLLines, config: RelctlConfig) {
        let settings = config.repositories
        let env = [
            RepositoryBuilder.keyVariable: "${{ secrets.\(RepositoryBuilder.keyVariable) }}",
            "GITHUB_TOKEN": "${{ github.token }}",
            "GIT_CONFIG_COUNT": "1",
            "GIT_CONFIG_KEY_0": "credential.helper",
            "GIT_CONFIG_VALUE_0":
                "!f() { test \"$1\" = get && echo username=x-access-token && echo \"password=$GITHUB_TOKEN\"; }; f",
            "PAGES_REMOTE": config.release.remote,
            "PAGES_BRANCH": settings.branch ?? "",
            "PAGES_FOLDER": settings.folder ?? "",
        ]
        step(
            &y, name: "Publish the APT and DNF repository", env: env,
            run: [
                "published=\"$RUNNER_TEMP/published\"",
                "previous=\"$published${PAGES_FOLDER:+/$PAGES_FOLDER}\"",
                // ls-remote: 0 when the branch exists, 2 when it does not (the first release), else an error.
                "status=0",
                "git ls-remote --exit-code --heads \"$PAGES_REMOTE\" \"$PAGES_BRANCH\" > /dev/null || status=$?",
                "if [ \"$status\" = 0 ]; then",
                "  git fetch --no-tags --depth=1 \"$PAGES_REMOTE\" \"$PAGES_BRANCH\"",
                "  git worktree add --detach \"$published\" FETCH_HEAD",
                "elif [ \"$status\" != 2 ]; then",
                "  exit \"$status\"",
                "fi",
                // The branch may exist without the repository yet (a site published before it).
                "if [ -d \"$previous\" ]; then",
                "  relctl repository --tag \"$TAG\" --previous \"$previous\" --publish",
                "else",
                "  relctl repository --tag \"$TAG\" --publish",
                "fi",
            ])
    }

    /// A project without `[[target]]` builds nothing: one job checks the tag against the
    /// manifests and publishes the release as its notes, with no asset (`relctl publish` on a
    /// tag-only project), as `relctl release TAG --publish` does.
    private static func tagOnlyRelease(_ y: inout YAMLLines, config: RelctlConfig) {
        y.add("  release:")
        y.add("    name: Release")
        y.add("    runs-on: \(CIRunners.coordinator)")
        y.add("    permissions:")
        y.add(
            "      contents: write # relctl publish: the release, its notes as the body (a tag-only release has no assets)"
        )
        y.add("    steps:")
        checkout(&y, fullHistory: true)
        setup(&y, config: config, job: .release)
        validateTag(&y)
        // A chart-only project (no [[target]]) ships its charts, as `relctl release` does.
        if !config.channels.charts.isEmpty {
            step(&y, name: "Write the Helm charts", run: ["relctl chart --tag \"$TAG\""])
        }
        notesAndPublish(&y, config: config)
    }

    private static func validateTag(_ y: inout YAMLLines) {
        step(&y, name: "Check the tag against the manifests", run: ["relctl validate-tag \"$TAG\""])
    }

    /// The release job's last steps: the notes become the release's body.
    private static func notesAndPublish(_ y: inout YAMLLines, config: RelctlConfig) {
        step(&y, name: "Write the release notes", run: ["relctl notes --tag \"$TAG\" --output dist/RELEASE_NOTES.md"])
        // A draft first, public only once every asset is attached; a re-run of a failed job
        // finishes the same release (the runner sets GITHUB_REPOSITORY and GITHUB_API_URL).
        // With [npm] / [pypi], the same command then publishes the packages (after the forges).
        var env = ["GITHUB_TOKEN": "${{ github.token }}"]
        for secret in registryTokenSecrets(config: config) { env[secret] = "${{ secrets.\(secret) }}" }
        step(&y, name: "Publish the GitHub release", env: env, run: ["relctl publish \"$TAG\""])
    }

    /// Where users install from (`[[chart]]`, `[nix]`, `[homebrew]`, `[scoop]`, `[[channel]]`): each
    /// channel's files are written after SHA256SUMS and before signing, so the chart, the flake and a
    /// plugin's files are listed, signed and published with the archives, as `relctl release` does.
    /// Pushing a chart or a tap/bucket needs credentials for another registry or repository, so
    /// that stays a step the project adds (`relctl chart --tag TAG --push`, `relctl channel NAME
    /// --tag TAG --publish`; docs/channels.md).
    private static func channels(_ y: inout YAMLLines, config: RelctlConfig) {
        let channels = config.channels
        if !channels.charts.isEmpty {
            step(&y, name: "Write the Helm charts", run: ["relctl chart --tag \"$TAG\""])
        }
        var names: [String] = []
        if channels.nix { names.append(NixChannel.id) }
        if channels.homebrew != nil { names.append(HomebrewChannel.id) }
        if channels.scoop != nil { names.append(ScoopChannel.id) }
        names += channels.plugins.map(\.name)
        for name in names {
            step(&y, name: "Write the \(name) channel", run: ["relctl channel \(name) --tag \"$TAG\""])
        }
    }

    /// True when an `[[image]]` goes to GHCR, where the job's own token may push.
    package static func pushesToGHCR(_ config: RelctlConfig) -> Bool {
        config.images.contains { $0.repository.registry == "ghcr.io" }
    }

    /// `[[package]]`: the build job of each target a table packages writes its .deb/.rpm next to
    /// the archive; the release job's `relctl checksum dist` lists them in SHA256SUMS.
    private static func linuxPackages(_ y: inout YAMLLines, config: RelctlConfig) {
        guard let targets = try? TargetResolver.resolveAll(config) else { return }
        let packaged = Set(
            config.linuxPackages.flatMap { LinuxPackageBuilder.targets(of: $0, among: targets) }.map(\.triple))
        guard !packaged.isEmpty else { return }
        // Triples are checked names ([A-Za-z0-9_.-]), so the JSON list is safe inside the expression.
        let list = packaged.sorted().map { "\"\($0)\"" }.joined(separator: ",")
        // A signed rpm table's key comes from the secret of the variable's name, through `env:`.
        var env: [String: String] = [:]
        if config.linuxPackages.contains(where: { $0.signingKey != nil }) {
            env[RpmSigningKey.variable] = "${{ secrets.\(RpmSigningKey.variable) }}"
        }
        step(
            &y, name: "Linux packages", condition: "contains(fromJSON('[\(list)]'), matrix.target)", env: env,
            run: ["relctl linux-package --tag \"$TAG\" --target \"$TARGET\""])
    }

    /// Build jobs of Linux targets also hand their binaries to the release job, which builds
    /// the multi-platform images once every platform is there.
    private static func uploadImageBinaries(_ y: inout YAMLLines, config: RelctlConfig) {
        let directory = config.build.binaryDirectory.render([
            "target": "${{ matrix.target }}", "project": config.project.name,
        ])
        y.add("      - name: Upload the binaries for the container images")
        y.add("        if: contains(matrix.target, '-linux')")
        y.add("        uses: \(uploadArtifact) \(pinComment)")
        y.add("        with:")
        y.add("          name: bin-${{ matrix.target }}")
        let paths = config.build.binaries.map { directory + "/" + $0 }.joined(separator: "\n") + "\n"
        if let block = YAMLEmitter.literalBlock(paths, parentColumn: 10) {
            y.add("          path: " + block.indicator)
            for line in block.lines { y.add(line) }
        } else {
            y.add("          path: " + YAMLEmitter.scalar(paths))
        }
        y.add("          if-no-files-found: error")
    }

    /// The release job builds the images from the Linux binaries and pushes them last, after the
    /// GitHub release exists: `relctl image` reads `image-binaries/<target>/`.
    private static func pushImages(_ y: inout YAMLLines, config: RelctlConfig) {
        y.add("      - name: Download the binaries for the container images")
        y.add("        uses: \(downloadArtifact) \(pinComment)")
        y.add("        with:")
        y.add("          pattern: bin-*")
        y.add("          path: image-binaries")
        if pushesToGHCR(config) {
            step(
                &y, name: "Log in to ghcr.io", env: ["GH_TOKEN": "${{ github.token }}"],
                run: [
                    "mkdir -p \"$RUNNER_TEMP/docker\"",
                    "auth=\"$(printf '%s:%s' \"$GITHUB_ACTOR\" \"$GH_TOKEN\" | base64 -w0)\"",
                    "printf '{\"auths\":{\"ghcr.io\":{\"auth\":\"%s\"}}}\\n' \"$auth\" > \"$RUNNER_TEMP/docker/config.json\"",
                ])
        }
        step(
            &y, name: "Build and push the container images",
            run: [
                "for folder in image-binaries/bin-*; do mv \"$folder\" \"image-binaries/${folder#image-binaries/bin-}\"; done",
                "DOCKER_CONFIG=\"$RUNNER_TEMP/docker\" relctl image --tag \"$TAG\" --push --artifacts image-binaries",
            ])
    }

    /// Signs SHA256SUMS with the keys `[sign]` names, taken from repository secrets of the
    /// same names as relctl's variables. They reach the step only through `env:`; nothing is
    /// expanded into the script.
    private static func signing(_ y: inout YAMLLines, config: RelctlConfig) {
        var env: [String: String] = [:]
        if config.sign.sshKey != nil {
            env[SigningKeys.sshKeyVariable] = "${{ secrets.\(SigningKeys.sshKeyVariable) }}"
        }
        if config.sign.minisignKey != nil {
            env[SigningKeys.minisignKeyVariable] = "${{ secrets.\(SigningKeys.minisignKeyVariable) }}"
            env[SigningKeys.minisignPasswordVariable] = "${{ secrets.\(SigningKeys.minisignPasswordVariable) }}"
        }
        guard !env.isEmpty else { return }
        step(&y, name: "Sign SHA256SUMS", env: env, run: ["relctl sign dist/SHA256SUMS"])
    }

    package static func checkout(_ y: inout YAMLLines, fullHistory: Bool) {
        y.add("      - name: Check out")
        y.add("        uses: \(checkout) \(pinComment)")
        y.add("        with:")
        // Notes need the previous tag; builds only need the tagged commit.
        if fullHistory { y.add("          fetch-depth: 0") }
        y.add("          persist-credentials: false")
    }

    package static func setup(_ y: inout YAMLLines, config: RelctlConfig, job: CISetupStep.Job) {
        if !config.ci.setupSteps.isEmpty {
            for (index, setupStep) in config.ci.setupSteps.enumerated() where setupStep.jobs.contains(job) {
                self.setupStep(&y, setupStep, index: index)
            }
        } else if config.ci.setup.isEmpty {
            var env = [
                "RELCTL_INSTALL_VERSION": RelctlVersion.version,
                "RELCTL_INSTALL_REPOSITORY": relctlRepository,
            ]
            if let key = config.ci.relctlMinisignKey { env["RELCTL_MINISIGN_KEY"] = key }
            step(&y, name: "Install relctl", env: env, run: defaultSetup(config.ci))
        } else {
            step(&y, name: "Install relctl", run: config.ci.setup)
        }
    }

    /// The comment on a `uses:` of GitHub's own action that `[[ci.setup]]` names by version tag.
    package static let setupPinComment =
        "# zizmor: ignore[unpinned-uses] -- version tag of GitHub's own action, named so by ci.setup in relctl.toml"

    /// One `[[ci.setup]]` step. Secrets reach it only through `env:`, never pasted into a script.
    package static func setupStep(_ y: inout YAMLLines, _ setupStep: CISetupStep, index: Int) {
        var env = setupStep.env
        for (variable, secret) in setupStep.secrets { env[variable] = "${{ secrets.\(secret) }}" }
        switch setupStep.body {
        case .run(let lines):
            step(&y, name: setupStep.displayName(index: index), condition: setupStep.condition, env: env, run: lines)
        case .uses(let action):
            y.add("      - name: \(YAMLLines.plainOrQuoted(setupStep.displayName(index: index)))")
            if let condition = setupStep.condition { y.add("        if: \(YAMLLines.scalar(condition))") }
            y.add("        uses: \(action.text)" + (action.isVersionTagOfOwnAction ? " \(setupPinComment)" : ""))
            environment(&y, env)
            if !setupStep.with.isEmpty {
                y.add("        with:")
                for key in setupStep.with.keys.sorted() {
                    y.add("          " + YAMLEmitter.scalar(key) + ": " + YAMLLines.scalar(setupStep.with[key]!))
                }
            }
        }
    }

    package static func environment(_ y: inout YAMLLines, _ env: [String: String]) {
        guard !env.isEmpty else { return }
        y.add("        env:")
        for key in env.keys.sorted() {
            y.add("          " + YAMLEmitter.scalar(key) + ": " + YAMLLines.scalar(env[key]!))
        }
    }

    package static func step(
        _ y: inout YAMLLines, name: String, id: String? = nil, condition: String? = nil, env: [String: String] = [:],
        run: [String]
    ) {
        y.add("      - name: \(YAMLLines.plainOrQuoted(name))")
        if let id { y.add("        id: \(id)") }
        if let condition { y.add("        if: \(YAMLLines.scalar(condition))") }
        environment(&y, env)
        // A line holding line breaks is several lines of the script (issue 18: a quoted scalar
        // or a block line with a raw break in it is not the script the user wrote, or not YAML).
        let run = run.flatMap {
            $0.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        }
        let block = YAMLEmitter.literalBlock(run.joined(separator: "\n") + "\n", parentColumn: 8)
        if let block, run.count > 1 || run[0].contains(": ") || run[0].hasPrefix(" ") {
            y.add("        run: " + block.indicator)
            for line in block.lines { y.add(line) }
        } else {
            y.add("        run: " + YAMLEmitter.scalar(run.joined(separator: "\n")))
        }
    }
}
