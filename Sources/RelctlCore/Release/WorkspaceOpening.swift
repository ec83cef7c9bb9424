import Foundation

/// Whether the release's workspace (lock or scratch clone) could be set up.
enum WorkspaceOpening {
    case opened(ReleaseWorkspace)
    case failed(any RelctlError)
}
