import Foundation
import Synchronization

/// The one timestamp every entry gets: `SOURCE_DATE_EPOCH` when set, else the committer time of
/// the tagged commit (or HEAD before the tag exists). Never the wall clock.
enum ArchiveTimestamp {
    static func resolve(tag: String, root: URL, context: Context) throws -> Int {
        if let value = try SourceDateEpoch.from(context.environment) { return value }
        let git = Git(directory: root, context: context)
        guard try git.isRepository() else {
            throw PackagingError.noClock(
                "\(root.path) is not a git repository; set SOURCE_DATE_EPOCH or run inside the project's git repository"
            )
        }
        let ref = git.localTagExists(tag) ? "refs/tags/\(tag)" : "HEAD"
        do { return try git.committerTime(of: ref) } catch {
            if ref == "HEAD" {
                throw PackagingError.noClock(
                    "the repository at \(root.path) has no commit yet; commit the project first, or set SOURCE_DATE_EPOCH"
                )
            }
            throw PackagingError.noClock("git has no commit for \(ref) (\(error)); set SOURCE_DATE_EPOCH")
        }
    }
}

/// libarchive's zip writer turns times into MS-DOS times with localtime(3), so zips would differ
/// by time zone. While any zip is being written the process runs with TZ=UTC; the previous value
/// is restored when the last writer finishes.
enum UTCTimeZoneScope {
    /// How many writers are inside, and the TZ value to restore when the last one leaves.
    private static let state = Mutex<(depth: Int, saved: String?)>((0, nil))

    static func enter() {
        state.withLock { state in
            if state.depth == 0 {
                state.saved = getenv("TZ").map { String(cString: $0) }
                setenv("TZ", "UTC0", 1)
                tzset()
            }
            state.depth += 1
        }
    }

    static func leave() {
        state.withLock { state in
            state.depth -= 1
            if state.depth == 0 {
                if let saved = state.saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
                tzset()
            }
        }
    }
}

/// libarchive converts names through the C locale's character set, and in the plain "C" locale it
/// cannot store non-ASCII names (it even crashes on them). relctl switches LC_CTYPE to a UTF-8
/// locale once, so names are stored as UTF-8 whatever the user's locale: the same bytes everywhere.
enum UTF8Locale {
    private static let result = Mutex<Bool?>(nil)

    /// True when a UTF-8 LC_CTYPE is active.
    static func ensure() -> Bool {
        result.withLock { result in
            if let result { return result }
            let names: [String] = ["C.UTF-8", "C.utf8", "en_US.UTF-8", "UTF-8"]
            let found = names.contains { name in setlocale(LC_CTYPE, name) != nil }
            result = found
            return found
        }
    }
}
