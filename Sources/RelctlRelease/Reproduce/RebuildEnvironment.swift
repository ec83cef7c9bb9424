import Foundation
import RelctlBasics
import RelctlModel

/// How a rebuild's surroundings differ from the run that asked for it: another umask, time
/// zone and locale (and, by construction, another path). Anything the release depends on among
/// them shows up as a difference, which is what a rebuild is for.
struct RebuildEnvironment: Codable, Sendable, Equatable {
    /// Octal, as `umask` prints it (`0077`).
    var umask: String
    var timeZone: String
    var locale: String

    /// Values that differ from the current ones: umask 077 unless it already is (then 002), a time
    /// zone 14 hours east of UTC unless that is the current one, and the C or C.UTF-8 locale,
    /// whichever is not in use (both exist on every glibc and musl system).
    static func different(from environment: [String: String], currentUmask: mode_t) -> RebuildEnvironment {
        let mask: mode_t = currentUmask == 0o077 ? 0o002 : 0o077
        let zone = environment["TZ"] == "Pacific/Kiritimati" ? "America/Adak" : "Pacific/Kiritimati"
        let current = environment["LC_ALL"] ?? environment["LC_CTYPE"] ?? environment["LANG"] ?? "C"
        let locale = current == "C.UTF-8" || current == "C.utf8" ? "C" : "C.UTF-8"
        return RebuildEnvironment(umask: String(format: "%04o", Int(mask)), timeZone: zone, locale: locale)
    }

    var mask: mode_t { mode_t(umask, radix: 8) ?? 0o077 }

    /// The environment builds and git see in the rebuild.
    func applied(to environment: [String: String]) -> [String: String] {
        var environment = environment
        environment["TZ"] = timeZone
        environment["LC_ALL"] = locale
        environment["LANG"] = locale
        environment["LANGUAGE"] = nil
        return environment
    }

    /// The process's umask, read without changing it for longer than the call.
    static var currentUmask: mode_t {
        let mask = exchangeUmask(0)
        _ = exchangeUmask(mask)
        return mask
    }

    /// Runs `body` with the process's umask set to this one (children inherit it), then restores it.
    func withUmask<T>(_ body: () async throws -> T) async rethrows -> T {
        let previous = exchangeUmask(mask)
        defer { _ = exchangeUmask(previous) }
        return try await body()
    }

    var summary: String { "umask \(umask), TZ=\(timeZone), LC_ALL=\(locale)" }
}

/// umask(2) under another name: inside `RebuildEnvironment`, `umask` is the property.
private func exchangeUmask(_ mask: mode_t) -> mode_t { umask(mask) }
