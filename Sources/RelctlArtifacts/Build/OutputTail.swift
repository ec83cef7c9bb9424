import RelctlBasics
import Synchronization

/// The last N lines of a child's output, appended to from two reader threads.
package final class OutputTail: Sendable {
    private let capacity: Int
    private let buffer = Mutex<[String]>([])

    package init(capacity: Int) { self.capacity = capacity }

    package func append(_ line: String) {
        buffer.withLock { lines in
            lines.append(line)
            if lines.count > capacity { lines.removeFirst(lines.count - capacity) }
        }
    }

    package var lines: [String] { buffer.withLock { $0 } }
}
