import Foundation
import RelctlBasics
import Synchronization

/// The one timestamp every entry gets: `SOURCE_DATE_EPOCH` when set, else the committer time of
/// the tagged commit (or HEAD before the tag exists). Never the wall clock.
package enum ArchiveTimestamp {
    package static func resolve(tag: String, root: URL, context: Context) async throws -> Int {
        if let value = try SourceDateEpoch.from(context.environment) { return value }
        let git = Git(directory: root, context: context)
        guard try await git.isRepository() else {
            throw PackagingError.noClock(
                "\(root.path) is not a git repository; set SOURCE_DATE_EPOCH or run inside the project's git repository"
            )
        }
        let ref = await git.localTagExists(tag) ? "refs/tags/\(tag)" : "HEAD"
        do { return try await git.committerTime(of: ref) } catch {
            if ref == "HEAD" {
                throw PackagingError.noClock(
                    "the repository at \(root.path) has no commit yet; commit the project first, or set SOURCE_DATE_EPOCH"
                )
            }
            throw PackagingError.noClock("git has no commit for \(ref) (\(error)); set SOURCE_DATE_EPOCH")
        }
    }
}
