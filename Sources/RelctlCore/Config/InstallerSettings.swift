import Foundation

/// `[installer]`: `{project}-installer.sh` / `.ps1` in dist/ during `relctl release`.
struct InstallerSettings: Sendable, Equatable {
    var enabled: Bool = false
    init() {}
}
