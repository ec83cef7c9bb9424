import Foundation

/// How one target's build ended.
public struct TargetBuildResult: Sendable, Encodable {
    public enum Outcome: String, Sendable, Encodable {
        case succeeded
        /// The command exited non-zero.
        case failed
        /// The command succeeded but expected binaries are missing.
        case missingBinaries = "missing-binaries"
    }

    public var target: String
    public var outcome: Outcome
    /// The command line run (after placeholders), or nil when `[build] command` is unset (prebuilt binaries).
    public var command: String?
    public var exitStatus: Int32
    /// The binary folder, relative to the project root.
    public var binaryDirectory: String
    /// Expected binary paths (relative to the project root) that do not exist.
    public var missing: [String]
    /// The last lines of the command's combined output, kept for failures.
    public var outputTail: [String]
    public var seconds: Double

    public var succeeded: Bool { outcome == .succeeded }

    enum CodingKeys: String, CodingKey {
        case target, outcome, command, missing, seconds
        case exitStatus = "exit-status"
        case binaryDirectory = "binary-dir"
        case outputTail = "output-tail"
    }
}

/// Every target's result, in the order the targets were given.
public struct BuildReport: Sendable, Encodable {
    public var tag: String
    public var version: String
    public var commit: String
    public var results: [TargetBuildResult]

    public var failed: [TargetBuildResult] { results.filter { !$0.succeeded } }
    public var succeeded: Bool { failed.isEmpty }

    /// The error to exit with (1) when any target failed, naming each one and why.
    public var failure: BuildError? { succeeded ? nil : .failed(failed) }
}

/// Problems in `relctl build`.
public enum BuildError: RelctlError, CustomStringConvertible {
    /// One or more targets failed (exit 1).
    case failed([TargetBuildResult])
    /// `--host` found no configured target for this machine (exit 2).
    case noHostTarget(configured: [String], file: String)
    /// No targets to build (exit 2).
    case noTargets(file: String)

    public var exitCode: ExitCode {
        switch self {
        case .failed: return .failure
        case .noHostTarget, .noTargets: return .badInput
        }
    }

    public var diagnostics: [Diagnostic] {
        switch self {
        case .failed(let results):
            var lines = results.map { result -> Diagnostic in
                switch result.outcome {
                case .missingBinaries:
                    return Diagnostic("build for \(result.target) produced no \(result.missing.map { "`\($0)`" }.joined(separator: ", ")); check `binaries` and `binary-dir` in [build] (or the target's `binary-dir`)")
                default:
                    return Diagnostic("build for \(result.target) failed: `\(result.command ?? "")` exited with status \(result.exitStatus)")
                }
            }
            lines.append(Diagnostic("\(results.count) target\(results.count == 1 ? "" : "s") failed: \(results.map(\.target).joined(separator: ", "))"))
            return lines
        case let .noHostTarget(configured, file):
            return [Diagnostic(file: file, "no configured target matches this machine (\(BuildError.hostDescription)); configured: \(configured.isEmpty ? "none" : configured.joined(separator: ", ")); add a [[target]] for it or use --target")]
        case .noTargets(let file):
            return [Diagnostic(file: file, "no [[target]] entries to build; add one, e.g. [[target]] triple = \"x86_64-unknown-linux-gnu\"")]
        }
    }

    static var hostDescription: String {
        #if os(Linux)
        let os = "linux"
        #elseif os(macOS)
        let os = "macos"
        #else
        let os = "other"
        #endif
        #if arch(x86_64)
        return "\(os) x86_64"
        #elseif arch(arm64)
        return "\(os) aarch64"
        #else
        return os
        #endif
    }

    public var description: String { message }
}
