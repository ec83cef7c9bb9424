import Foundation
import RelctlBasics
import Synchronization

/// libarchive converts names through the C locale's character set, and in the plain "C" locale it
/// cannot store non-ASCII names (it even crashes on them). relctl switches LC_CTYPE to a UTF-8
/// locale once, so names are stored as UTF-8 whatever the user's locale: the same bytes everywhere.
package enum UTF8Locale {
    private static let result = Mutex<Bool?>(nil)

    /// True when a UTF-8 LC_CTYPE is active.
    package static func ensure() -> Bool {
        result.withLock { result in
            if let result { return result }
            let names: [String] = ["C.UTF-8", "C.utf8", "en_US.UTF-8", "UTF-8"]
            let found = names.contains { name in setlocale(LC_CTYPE, name) != nil }
            result = found
            return found
        }
    }
}
