import Foundation

/// Foundation traps (a `try!` inside FileHandle) when a pipe cannot be opened, and relctl opens
/// pipes for every child. So the open-file limit is settled before any work starts: the soft
/// limit is raised to the hard one, and a hard limit too low to work with is refused with a
/// clear message instead of a crash half-way.
public enum DescriptorLimit {
    /// Enough for the parallel archives, hashes and children of one run.
    package static let minimum: rlim_t = 64

    /// Raises the soft limit; returns an error when even the hard limit is below `minimum`.
    public static func prepare() -> (any RelctlError)? {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return nil }
        if limits.rlim_cur < limits.rlim_max {
            var raised = limits
            raised.rlim_cur = limits.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limits = raised }
        }
        guard limits.rlim_cur >= minimum else {
            return EnvironmentError.descriptorLimit(current: UInt64(limits.rlim_cur), minimum: UInt64(minimum))
        }
        return nil
    }
}
