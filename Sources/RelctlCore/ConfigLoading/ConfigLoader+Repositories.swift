import Foundation
import RelctlBasics

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
            repository.finish()
        }
        config.repositories = settings
    }
}
