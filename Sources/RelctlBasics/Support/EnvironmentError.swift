import Foundation

/// Problems with the environment relctl runs in (variables, process limits); all are bad input
/// (exit 2), found before any work starts.
package enum EnvironmentError: RelctlError, CustomStringConvertible {
    /// `SOURCE_DATE_EPOCH` is not a whole number of seconds.
    case sourceDateEpochNotANumber(String)
    /// `SOURCE_DATE_EPOCH` is past what tar readers handle (`maximum`).
    case sourceDateEpochTooLate(Int, maximum: Int)
    /// The hard open-file limit is below what relctl needs.
    case descriptorLimit(current: UInt64, minimum: UInt64)

    package var exitCode: RelctlExitCode { .badInput }

    package var diagnostics: [Diagnostic] {
        switch self {
        case .sourceDateEpochNotANumber(let text):
            return [
                Diagnostic(
                    "SOURCE_DATE_EPOCH=`\(text)` is not a whole number of seconds since 1970; unset it or set e.g. SOURCE_DATE_EPOCH=$(git log -1 --format=%ct)"
                )
            ]
        case let .sourceDateEpochTooLate(value, maximum):
            return [
                Diagnostic(
                    "SOURCE_DATE_EPOCH=\(value) is later than tar readers handle (at most \(maximum), in 2242); set the commit's time, e.g. SOURCE_DATE_EPOCH=$(git log -1 --format=%ct)"
                )
            ]
        case let .descriptorLimit(current, minimum):
            return [
                Diagnostic(
                    "the open-file limit is \(current), and relctl needs at least \(minimum) (pipes for git and builds, archives, hashes); raise it, e.g. `ulimit -n 1024`"
                )
            ]
        }
    }

    package var description: String { message }
}

/// `SOURCE_DATE_EPOCH` as the reproducible-builds spec defines it: whole seconds since 1970.
/// Builds, archives and releases read it through here so a bad value fails before any work
/// starts instead of reaching a build script or stopping a release at the packaging step.
package enum SourceDateEpoch {
    /// The value from `environment`, nil when unset or empty; bad input (exit 2) when not a number.
    package static func from(_ environment: [String: String]) throws -> Int? {
        guard let text = environment["SOURCE_DATE_EPOCH"], !text.isEmpty else { return nil }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), value >= 0 else {
            throw EnvironmentError.sourceDateEpochNotANumber(text)
        }
        // Past 11 octal digits (the year 2242) GNU tar refuses the archive and bsdtar crashes.
        guard value <= maximum else {
            throw EnvironmentError.sourceDateEpochTooLate(value, maximum: maximum)
        }
        return value
    }

    /// The latest time every tar reader handles: 8^11 - 1 seconds, the ustar header's limit.
    package static let maximum = 8_589_934_591
}

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
