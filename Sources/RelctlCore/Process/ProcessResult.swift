import Foundation
import Synchronization

/// What a finished process left behind.
public struct ProcessResult: Sendable {
    public var status: Int32
    var stdout: Data
    var stderr: Data

    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    var succeeded: Bool { status == 0 }
}
