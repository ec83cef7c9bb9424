import Foundation
import RelctlBasics
import Synchronization

/// One asset's upload on a terminal: a line redrawn at most five times a second with the
/// share sent and the rate. Prints nothing when stderr is not a terminal (logs get the
/// "uploading"/"uploaded" lines instead).
package final class UploadProgress: Sendable {
    private let console: Console
    private let name: String
    private let total: Int64
    private let start = Date()
    private let lastDraw = Mutex<Date>(.distantPast)

    package init(console: Console, name: String, total: Int64) {
        self.console = console
        self.name = name
        self.total = total
    }

    package var isShown: Bool { console.isInteractive && console.verbosity >= .normal }

    package func update(_ sent: Int64) {
        guard isShown else { return }
        let now = Date()
        let due = lastDraw.withLock { last -> Bool in
            guard now.timeIntervalSince(last) >= 0.2 else { return false }
            last = now
            return true
        }
        guard due else { return }
        let percent = total > 0 ? Int(Double(sent) * 100 / Double(total)) : 100
        let elapsed = max(0.001, now.timeIntervalSince(start))
        let rate = ByteCount.format(Int64(Double(sent) / elapsed))
        console.stderr("\r\u{1B}[K  \(name)  \(percent)% of \(ByteCount.format(total)), \(rate)/s")
    }

    package func finish() {
        guard isShown else { return }
        console.stderr("\r\u{1B}[K")
    }
}
