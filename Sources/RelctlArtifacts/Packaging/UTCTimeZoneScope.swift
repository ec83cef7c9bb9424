import Foundation
import RelctlBasics
import Synchronization

/// libarchive's zip writer turns times into MS-DOS times with localtime(3), so zips would differ
/// by time zone. While any zip is being written the process runs with TZ=UTC; the previous value
/// is restored when the last writer finishes.
package enum UTCTimeZoneScope {
    /// How many writers are inside, and the TZ value to restore when the last one leaves.
    private static let state = Mutex<(depth: Int, saved: String?)>((0, nil))

    package static func enter() {
        state.withLock { state in
            if state.depth == 0 {
                state.saved = getenv("TZ").map { String(cString: $0) }
                setenv("TZ", "UTC0", 1)
                tzset()
            }
            state.depth += 1
        }
    }

    package static func leave() {
        state.withLock { state in
            state.depth -= 1
            if state.depth == 0 {
                if let saved = state.saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
                tzset()
            }
        }
    }
}
