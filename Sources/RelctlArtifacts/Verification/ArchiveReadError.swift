import RelctlBasics

/// An archive read back (by `relctl reproduce`) that cannot be listed, or is past what is
/// compared. Exit 1: the release could not be shown reproducible, a finding about it, not a
/// mistake in what the user asked.
package enum ArchiveReadError: RelctlError, Equatable {
    /// A file that should be an archive could not be listed.
    case unreadableArchive(path: String, reason: String)
    /// An archive is past what reproduce compares (members or content): it cannot be judged.
    case archiveTooLarge(path: String, limit: String)

    package var exitCode: RelctlExitCode { .failure }

    package var diagnostics: [Diagnostic] {
        switch self {
        case .unreadableArchive(let path, let reason): return [Diagnostic(file: path, reason)]
        case .archiveTooLarge(let path, let limit):
            return [
                Diagnostic(
                    file: path,
                    "holds more than \(limit), the most `relctl reproduce` compares in one archive; it was not compared, so the release is not shown reproducible (compare its members with other tools, e.g. diffoscope)"
                )
            ]
        }
    }
}
