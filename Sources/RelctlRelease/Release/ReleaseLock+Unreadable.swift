import Foundation
import RelctlBasics
import RelctlModel

extension ReleaseLock {
    /// When something other than a lock relctl wrote sits at the lock's path (a folder, a link,
    /// garbage, a file nobody may read, an empty file left by an older relctl killed as it started), the
    /// error saying what it is and how to remove it; nil when there is no lock or it names a holder.
    /// Reporting such a thing as "another release is running" would send the user waiting.
    static func unreadableLock(at url: URL) -> ReleaseError? {
        guard let info = FileSystem.statusIfPresent(atPath: url.path, followingLinks: false) else { return nil }
        let removal = "if no relctl release is running in this repository, remove it"
        switch info.kind {
        case .regular: break
        case .directory:
            return ReleaseError.unreadableLock(
                path: url.path, reason: "is a folder, not a lock file relctl wrote; \(removal): `rm -r '\(url.path)'`")
        case .symlink, .special:
            let what = info.article
            return ReleaseError.unreadableLock(
                path: url.path, reason: "is \(what), not a lock file relctl wrote; \(removal): `rm '\(url.path)'`")
        }
        guard var data = FileSystem.contents(atPath: url.path) else {
            let reason = FileSystem.accessFailure(atPath: url.path, R_OK).map(\.description) ?? "cannot be read"
            return ReleaseError.unreadableLock(
                path: url.path,
                reason:
                    "the release lock cannot be read (\(reason)), so relctl cannot tell who holds it; \(removal): `rm '\(url.path)'`"
            )
        }
        if data.isEmpty {
            // relctl links its lock into place already written; a release of an older relctl wrote
            // it right after creating it.
            usleep(200_000)
            data = FileSystem.contents(atPath: url.path) ?? Data()
            if data.isEmpty {
                return ReleaseError.unreadableLock(
                    path: url.path,
                    reason:
                        "the release lock is empty (an older relctl killed as it started leaves one), so relctl cannot tell who holds it; \(removal): `rm '\(url.path)'`"
                )
            }
        }
        if (try? JSONDecoder().decode(Holder.self, from: data)) != nil { return nil }
        return ReleaseError.unreadableLock(
            path: url.path,
            reason:
                "the release lock is corrupt (\(data.count) bytes that are not a lock record relctl wrote), so relctl cannot tell who holds it; \(removal): `rm '\(url.path)'`"
        )
    }
}
