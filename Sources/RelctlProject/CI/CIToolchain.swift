import RelctlBasics
import RelctlModel

/// The toolchain a build job needs besides relctl, read from the build command: a Rust project
/// (`cargo …`) gets the target's standard library (`rustup target add`), installing rustup first
/// where the image has none (GitLab's jobs run in the Swift image the default setup needs). And a
/// plain `cargo build` for an ARM Linux target on an x86_64 runner is warned about: it cannot link
/// without a cross toolchain (issue 40).
package enum CIToolchain {
    /// The command's program for a target: its own `command`, else `[build] command`.
    package static func program(of target: TargetSettings?, config: RelctlConfig) -> String? {
        let command = target?.command ?? config.build.command
        return command.flatMap { $0.description.split(separator: " ").first.map(String.init) }
    }

    /// True when any build runs `cargo`.
    package static func usesCargo(_ config: RelctlConfig) -> Bool {
        program(of: nil, config: config) == "cargo"
            || config.targets.contains { program(of: $0, config: config) == "cargo" }
    }

    /// True when any build runs `go`.
    package static func usesGo(_ config: RelctlConfig) -> Bool {
        program(of: nil, config: config) == "go" || config.targets.contains { program(of: $0, config: config) == "go" }
    }

    /// For an image without Go (GitLab's Swift image, Ubuntu; the macOS VM has Homebrew): the
    /// distribution's Go, which fetches the toolchain go.mod names (GOTOOLCHAIN=auto). GitHub's
    /// runners have Go already.
    package static let goInstallLines = [
        "if ! command -v go > /dev/null; then if command -v apt-get > /dev/null; then apt-get update -qq && \(RelctlBuildRequirements.aptGetInstall) golang-go; else brew install go; fi; fi"
    ]

    /// The step's line: `$TARGET` comes from the job's environment.
    package static let rustTargetLine = "rustup target add \"$TARGET\""

    /// For an image without rustup (the Swift image of GitLab's jobs): rustup's documented
    /// installer, minimal profile, then the target.
    package static let rustupInstallLines = [
        "if ! command -v rustup > /dev/null; then curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal; . \"$HOME/.cargo/env\"; fi",
        rustTargetLine,
    ]

    /// ARM Linux targets built by plain cargo on a runner that is not ARM.
    package static func problems(config: RelctlConfig) -> [Diagnostic] {
        guard let targets = try? TargetResolver.resolveAll(config) else { return [] }
        var found: [Diagnostic] = []
        for target in targets
        where target.os == "linux" && (target.arch.hasPrefix("aarch64") || target.arch.hasPrefix("arm")) {
            let runner = target.runner.lowercased()
            guard runner.hasPrefix("ubuntu-"), !runner.contains("arm") else { continue }
            let settings = config.targets.first { $0.triple == target.triple }
            guard program(of: settings, config: config) == "cargo" else { continue }
            found.append(
                Diagnostic(
                    file: config.path,
                    "\(target.triple): its build runs `cargo` on \(target.runner), an x86_64 runner, which cannot link for \(target.arch) without a cross toolchain; set `command = \"cross build --release --target {target}\"` in this [[target]], or `runner = \"ubuntu-24.04-arm\"`",
                    severity: .warning))
        }
        return found
    }
}
