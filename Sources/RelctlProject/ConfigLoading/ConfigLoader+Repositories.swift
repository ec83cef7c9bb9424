import Foundation
import RelctlBasics
import RelctlModel

/// `[apt]`, `[dnf]` and `[repository]`.
extension ConfigLoader {
    package static func readRepositories(_ top: TableReader, into config: inout RelctlConfig) {
        var settings = RepositorySettings()
        if let apt = top.table("apt") {
            let suite = apt.string("suite") ?? "stable"
            if suite.isEmpty || suite.contains(where: { !($0.isLetter || $0.isNumber || "-._".contains($0)) }) {
                apt.report(
                    "suite", "`[apt] suite` `\(suite)` must be letters, digits, `-`, `.` or `_` (it names dists/SUITE)")
            }
            settings.aptSuite = suite
            apt.finish()
        }
        if let dnf = top.table("dnf") {
            settings.dnf = dnf.bool("enabled") ?? true
            dnf.finish()
        }
        if let repository = top.table("repository") {
            settings.signingKey = repository.string("signing-key")
            settings.previous = repository.string("previous")
            if let url = repository.string("url") {
                if url.hasPrefix("https://") || url.hasPrefix("http://"),
                    !url.contains(where: { $0.isWhitespace || "'\"[]\\`$".contains($0) })
                {
                    settings.url = url.hasSuffix("/") ? String(url.dropLast()) : url
                } else {
                    repository.report(
                        "url", "`[repository] url` must be an http(s) URL without blanks, quotes or brackets")
                }
            }
            if let branch = repository.string("branch") {
                if RepositorySettings.isBranchName(branch) {
                    settings.branch = branch
                } else {
                    repository.report(
                        "branch",
                        "`[repository] branch` `\(branch)` must be a git branch name: letters, digits, `-`, `_`, `.` or `/`, not starting with `-`, `.` or `/`, without `..` (e.g. \"gh-pages\")"
                    )
                }
            }
            if let folder = repository.string("folder") {
                let trimmed = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
                if ConfinedPath.isPlainRelative(trimmed), !trimmed.contains(where: { $0.isWhitespace || $0.isNewline })
                {
                    settings.folder = trimmed
                } else {
                    repository.report(
                        "folder",
                        "`[repository] folder` `\(folder)` must be a relative path in the branch without `.`, `..` or blanks (e.g. \"packages\")"
                    )
                }
            }
            if settings.folder != nil, settings.branch == nil {
                repository.report("folder", "`[repository] folder` places the repository in `branch`; set `branch` too")
            }
            repository.finish()
        }
        config.repositories = settings
    }
}
