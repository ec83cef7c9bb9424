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
        closeInherited(atOrAbove: Int(clamping: limits.rlim_cur))
        return nil
    }

    /// A descriptor at or above the limit can only be inherited (the kernel gives relctl the
    /// lowest free number), from a parent that opened it before lowering `ulimit -n`. On Linux,
    /// Foundation's `Process` asks posix_spawn to close every descriptor up to the highest open
    /// one in the child, and glibc refuses one past the soft limit (EBADF): every child, git
    /// first, failed to start. A child never receives such a descriptor anyway (`Process` closes
    /// all but stdin, stdout and stderr in it) and relctl never uses one it did not open, so
    /// closing it here changes nothing but that children start.
    package static func closeInherited(atOrAbove limit: Int) {
        #if os(Linux)
        guard let names = try? FileSystem.names(atPath: "/proc/self/fd") else { return }
        for descriptor in names.compactMap({ Int32($0) }) where Int(descriptor) >= limit {
            close(descriptor)
        }
        #endif
    }
}
