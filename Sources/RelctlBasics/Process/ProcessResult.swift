import Foundation
import Synchronization

/// What a finished process left behind.
public struct ProcessResult: Sendable {
    public var status: Int32
    package var stdout: Data
    package var stderr: Data

    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }

    /// The last four non-empty lines of output, joined on one line: what an error message quotes
    /// from a failed git push or bump.
    package var outputTail: String {
        (stderrText + stdoutText).split(separator: "\n").filter { !$0.isEmpty }.suffix(4).joined(separator: " | ")
    }
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    package var succeeded: Bool { status == 0 }
}
