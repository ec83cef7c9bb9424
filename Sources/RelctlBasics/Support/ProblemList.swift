import Foundation

/// Several problems collected before deciding to stop, in the swift-format style: the exit
/// code is the most severe among them.
public struct ProblemList: RelctlError, CustomStringConvertible, StorageFaultCarrying {
    public var exitCode: RelctlExitCode
    public var diagnostics: [Diagnostic]
    /// The first storage fault among the problems (`StorageFault`).
    package var storageFault: Int32?

    package init(exitCode: RelctlExitCode, diagnostics: [Diagnostic]) {
        self.exitCode = exitCode
        self.diagnostics = diagnostics
    }

    package init(_ errors: [any RelctlError]) {
        self.exitCode = errors.map(\.exitCode).max() ?? .failure
        self.diagnostics = errors.flatMap(\.diagnostics)
        self.storageFault = errors.lazy.compactMap { StorageFault.code(of: $0) }.first
    }

    public var description: String { message }
}
