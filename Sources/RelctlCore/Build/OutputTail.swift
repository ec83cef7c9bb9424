import Synchronization

/// The last N lines of a child's output, appended to from two reader threads.
final class OutputTail: Sendable {
    private let capacity: Int
    private let buffer = Mutex<[String]>([])

    init(capacity: Int) { self.capacity = capacity }

    func append(_ line: String) {
        buffer.withLock { lines in
            lines.append(line)
            if lines.count > capacity { lines.removeFirst(lines.count - capacity) }
        }
    }

    var lines: [String] { buffer.withLock { $0 } }
}
