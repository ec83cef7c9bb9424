import Foundation

/// What tells one process from a later one that was given the same pid: the boot it ran in and
/// the moment it started, in clock ticks since that boot (`/proc/PID/stat`, field 22). A record
/// that names a pid (a release lock) keeps it too, because on a busy machine a pid comes round
/// again within minutes, and liveness alone then reads a dead holder as a live one.
package enum ProcessStart {
    /// `BOOT-ID:TICKS` for `pid`, or nil where `/proc` does not say (macOS, a process already gone).
    package static func token(of pid: Int32) -> String? {
        // State is field 3, the first after the command name, so the start time, field 22, is the 20th.
        guard let fields = statFields(of: String(pid)), fields.count > 19, fields[19].allSatisfy(\.isNumber) else {
            return nil
        }
        return "\(bootID ?? "boot"):\(fields[19])"
    }

    /// True when `pid` is live but is not the process `token` was taken from: its pid was reused.
    /// False when either side cannot be read, so an old record or another system keeps the
    /// liveness rule alone.
    package static func isReused(_ pid: Int32, recorded token: String?) -> Bool {
        guard let token, let now = self.token(of: pid) else { return false }
        return now != token
    }

    /// The fields of `/proc/PID/stat` after the command name (which may hold spaces and
    /// parentheses): the state first, then the parent, the process group, …; nil where `/proc`
    /// does not say.
    package static func statFields(of pid: String) -> [Substring]? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ")
    }

    private static let bootID: String? = {
        (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }()
}
