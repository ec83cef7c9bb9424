/// Why relctl refuses to read a text file a user edits (config, manifest, lockfile, checksum
/// list); all are bad input (exit 2) naming the file, and the line where there is one.
package enum TextFileError: RelctlError, CustomStringConvertible {
    /// A folder, device or pipe; `kind` says which.
    case notRegularFile(path: String, kind: String)
    /// Larger than relctl reads.
    case tooLarge(path: String, size: Int64, limit: Int64)
    /// A NUL byte, on `line`.
    case nulByte(path: String, line: Int)
    /// Invalid UTF-8, first on `line`.
    case invalidUTF8(path: String, line: Int)

    package var exitCode: RelctlExitCode { .badInput }

    package var diagnostics: [Diagnostic] {
        switch self {
        case let .notRegularFile(path, kind):
            return [Diagnostic(file: path, "is not a regular file (\(kind)); point relctl at the file itself")]
        case let .tooLarge(path, size, limit):
            return [
                Diagnostic(
                    file: path,
                    "is \(ByteCount.format(size)), more than relctl reads (\(ByteCount.format(limit))); is this the right file?"
                )
            ]
        case let .nulByte(path, line):
            return [
                Diagnostic(
                    file: path, line: line,
                    "contains a NUL byte; relctl reads text files only (remove the byte, or check this is the right file)"
                )
            ]
        case let .invalidUTF8(path, line):
            return [Diagnostic(file: path, line: line, "is not valid UTF-8; save it as UTF-8")]
        }
    }

    package var description: String { message }
}
