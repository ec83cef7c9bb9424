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
