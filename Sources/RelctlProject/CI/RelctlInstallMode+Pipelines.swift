import RelctlBasics
import RelctlModel

/// How the generated pipelines install relctl in each mode, and what each mode cannot do as
/// configured: the CI area's side of `RelctlInstallMode` (`[ci] relctl`, part of the config model).
extension RelctlInstallMode {
    /// relctl's published targets (relctl.toml at relctl's root), by the runner that can run them.
    package static let publishedTargets: [(runner: String, triple: String)] = [
        ("Linux/X64", "x86_64-unknown-linux-gnu"),
        ("macOS/ARM64", "aarch64-apple-darwin"),
    ]

    /// The `release` step's lines after the system packages (the shared libraries relctl links):
    /// pick the archive for `RUNNER_OS/RUNNER_ARCH`, fetch it and SHA256SUMS from the release of
    /// `v$RELCTL_INSTALL_VERSION` at `$RELCTL_INSTALL_REPOSITORY`, refuse it unless its line of
    /// SHA256SUMS checks out (and, with a key, SHA256SUMS' minisign signature), then unpack it.
    /// The archive's name and layout are relctl.toml's `[archive] name` with its one top folder.
    package static func releaseInstallLines(minisignKey: String?) -> [String] {
        var lines = ["case \"$RUNNER_OS/$RUNNER_ARCH\" in"]
        for (runner, triple) in publishedTargets { lines.append("  \(runner)) target=\(triple) ;;") }
        lines += [
            "  *) echo \"::error::relctl publishes no archive for $RUNNER_OS/$RUNNER_ARCH; set [ci] relctl = \\\"source\\\" in relctl.toml to build it there\"; exit 1 ;;",
            "esac",
            "stem=\"relctl-v$RELCTL_INSTALL_VERSION-$target\"",
            "base=\"$RELCTL_INSTALL_REPOSITORY/releases/download/v$RELCTL_INSTALL_VERSION\"",
            "mkdir -p \"$RUNNER_TEMP/relctl\" && cd \"$RUNNER_TEMP/relctl\"",
            "curl -fsSL --retry 3 -o SHA256SUMS \"$base/SHA256SUMS\"",
            "curl -fsSL --retry 3 -o \"$stem.tar.gz\" \"$base/$stem.tar.gz\"",
        ]
        if minisignKey != nil {
            lines += [
                "curl -fsSL --retry 3 -o SHA256SUMS.minisig \"$base/SHA256SUMS.minisig\"",
                "minisign -Vqm SHA256SUMS -P \"$RELCTL_MINISIGN_KEY\"",
            ]
        }
        lines += [
            // Exactly the archive's own line: a SHA256SUMS without it must not pass as "nothing to check".
            "awk -v name=\"$stem.tar.gz\" '$2 == name' SHA256SUMS > archive.sha256",
            "if [ \"$(wc -l < archive.sha256)\" -ne 1 ]; then echo \"::error::SHA256SUMS of relctl v$RELCTL_INSTALL_VERSION has no line for $stem.tar.gz\"; exit 1; fi",
            "if command -v sha256sum > /dev/null; then sha256sum -c archive.sha256; else shasum -a 256 -c archive.sha256; fi",
            "tar -xzf \"$stem.tar.gz\"",
            "echo \"$RUNNER_TEMP/relctl/$stem\" >> \"$GITHUB_PATH\"",
        ]
        return lines
    }

    /// `relctl = "release"` where it cannot work as asked: a build job on a runner relctl
    /// publishes no archive for (Intel macOS, ARM Linux).
    package static func problems(config: RelctlConfig) -> [Diagnostic] {
        guard config.ci.usesDefaultSetup, config.ci.relctl == .release else { return [] }
        var found: [Diagnostic] = []
        for target in (try? TargetResolver.resolveAll(config)) ?? [] {
            let runner = target.runner.lowercased()
            let intelMac =
                runner == "macos-13"
                || (runner.hasPrefix("macos-") && (runner.hasSuffix("-intel") || runner.hasSuffix("-large")))
            guard intelMac || (runner.hasPrefix("ubuntu-") && runner.contains("arm")) else { continue }
            found.append(
                Diagnostic(
                    file: config.path,
                    "\(target.triple): its build job runs on \(target.runner), for which relctl publishes no archive (only \(publishedTargets.map(\.triple).joined(separator: " and "))), so `relctl = \"release\"` fails there; use `relctl = \"source\"` or another runner",
                    severity: .warning))
        }
        return found
    }

    /// The GitLab pipeline's default setup builds relctl from source whatever `relctl` says.
    package static func gitLabProblems(config: RelctlConfig) -> [Diagnostic] {
        guard config.ci.usesDefaultSetup, config.ci.relctl == .release else { return [] }
        return [
            Diagnostic(
                file: config.path,
                "`relctl = \"release\"` applies to the GitHub workflow; the GitLab pipeline's default setup still builds relctl from source",
                severity: .warning)
        ]
    }
}
