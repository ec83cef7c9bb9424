import RelctlBasics

/// Which CI runner each job of a generated workflow runs on: a target's build job on the runner
/// its `[[target]] runner` names, else the default for its OS below; the jobs that only run relctl
/// (plan, merge, publish) on Linux; for GitLab, the hosted runners' tags and images. `ci generate`
/// and `relctl matrix` read them from here.
package enum CIRunners {
    /// The runner for the jobs that need no particular OS (plan, merge, publish).
    package static let coordinator = "ubuntu-latest"

    /// The default runner for a triple, as in the seed's matrix; nil for an OS relctl does not know.
    package static func defaultRunner(for triple: TargetTriple) -> String? {
        switch triple.os {
        case "linux": return coordinator
        // GitHub retired macos-13 on 2025-12-04; macos-15-intel is its last Intel image
        // (actions/runner-images, "Available Images").
        case "macos": return triple.arch == "x86_64" ? "macos-15-intel" : "macos-14"
        case "windows": return "windows-latest"
        default: return nil
        }
    }

    /// `ci generate --provider gitlab`: GitLab's hosted runners are picked by tag and image.
    package enum GitLab {
        /// The image of the Linux jobs: the official Swift image, so the default setup can build
        /// relctl (Ubuntu, root, git); a build needing another toolchain installs it in `[ci] setup`.
        package static let linuxImage = "swift:6.2-noble"
        /// GitLab's hosted macOS runner (Apple silicon; x86_64 through Rosetta 2) and one of the VM
        /// images it offers (macOS and Xcode, which ships Swift; Homebrew preinstalled).
        package static let macOSTag = "saas-macos-medium-m1"
        package static let macOSImage = "macos-15-xcode-16"
        /// GitLab's hosted Windows runner: no image (not the Docker executor), PowerShell as the shell.
        package static let windowsTag = "saas-windows-medium-amd64"
    }
}
