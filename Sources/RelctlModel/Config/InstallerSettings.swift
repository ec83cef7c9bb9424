import Foundation
import RelctlBasics

/// `[installer]`: `{project}-installer.sh` / `.ps1` in dist/ during `relctl release`.
package struct InstallerSettings: Sendable, Equatable {
    package var enabled: Bool = false
    package init() {}
}
