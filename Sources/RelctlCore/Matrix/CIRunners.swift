import RelctlBasics

/// Which CI runner each job of a generated workflow runs on: a target's build job on the runner
/// its `[[target]] runner` names, else the default for its OS below; the jobs that only run relctl
/// (plan, merge, publish) on Linux. `ci generate` and `relctl matrix` both read it from here.
package enum CIRunners {
    /// The runner for the jobs that need no particular OS (plan, merge, publish).
    package static let coordinator = "ubuntu-latest"

    /// The default runner for a triple, as in the seed's matrix; nil for an OS relctl does not know.
    package static func defaultRunner(for triple: TargetTriple) -> String? {
        switch triple.os {
        case "linux": return coordinator
        case "macos": return triple.arch == "x86_64" ? "macos-13" : "macos-14"
        case "windows": return "windows-latest"
        default: return nil
        }
    }
}
