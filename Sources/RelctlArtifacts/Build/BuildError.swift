import RelctlBasics
import RelctlModel

/// Problems in `relctl build`.
public enum BuildError: RelctlError, CustomStringConvertible {
    /// One or more targets failed (exit 1).
    case failed([TargetBuildResult])
    /// `--host` found no configured target for this machine (exit 2).
    case noHostTarget(configured: [String], file: String)
    /// No targets to build (exit 2).
    case noTargets(file: String)
    /// `--prebuilt` lacks binaries (exit 2).
    case prebuiltMissing(directory: String, missing: [String])

    public var exitCode: RelctlExitCode {
        switch self {
        case .failed: return .failure
        case .noHostTarget, .noTargets, .prebuiltMissing: return .badInput
        }
    }

    public var diagnostics: [Diagnostic] {
        switch self {
        case .failed(let results):
            var lines = results.map { result -> Diagnostic in
                switch result.outcome {
                case .missingBinaries:
                    return Diagnostic(
                        "build for \(result.target) produced no \(result.missing.map { "`\($0)`" }.joined(separator: ", ")); check `binaries` and `binary-dir` in [build] (or the target's `binary-dir`)"
                    )
                default:
                    return Diagnostic(
                        "build for \(result.target) failed: `\(result.command ?? "")` exited with status \(result.exitStatus)"
                    )
                }
            }
            lines.append(
                Diagnostic(
                    "\(results.count) target\(results.count == 1 ? "" : "s") failed: \(results.map(\.target).joined(separator: ", "))"
                ))
            return lines
        case let .noHostTarget(configured, file):
            return [
                Diagnostic(
                    file: file,
                    "no configured target matches this machine (\(BuildError.hostDescription)); configured: \(configured.isEmpty ? "none" : configured.joined(separator: ", ")); add a [[target]] for it or use --target"
                )
            ]
        case .noTargets(let file):
            return [Diagnostic(file: file, "no [[target]] entries to build; \(TargetResolver.addTargetHint)")]
        case let .prebuiltMissing(directory, missing):
            return [
                Diagnostic(
                    file: directory,
                    "prebuilt binaries missing (\(missing.joined(separator: ", "))); lay them out as DIR/<binary-dir>/<binary>, as the build leaves them (or DIR/<binary> for a single target)"
                )
            ]
        }
    }

    package static var hostDescription: String {
        ([TargetResolver.hostOS] + TargetResolver.hostArchitectures.prefix(1)).joined(separator: " ")
    }

    public var description: String { message }
}
