import Foundation
import RelctlBasics
import RelctlModel
import Synchronization

/// The last lines of a child's output (hooks, builds, child releases), kept for error messages.
final class StageOutput: Sendable {
    private let lines = Mutex<[String]>([])
    private let limit: Int

    init(limit: Int = 40) { self.limit = limit }

    func append(_ line: String) {
        lines.withLock { lines in
            lines.append(line)
            if lines.count > limit { lines.removeFirst(lines.count - limit) }
        }
    }

    var text: String { lines.withLock { $0.joined(separator: "\n") } }
}
