import Foundation
import RelctlBasics

/// Problems making or publishing the `[npm]` packages: bad input (exit 2) for what the
/// configuration or the environment must fix, a failure (exit 1) for what the registry holds or says.
package enum NpmError: RelctlError, CustomStringConvertible {
    /// `--registry npm` in a project without `[npm]`.
    case notConfigured(config: String)
    /// No target npm has words for.
    case noPlatform(config: String, targets: [String])
    /// Two targets that npm would name alike.
    case samePlatform(config: String, name: String, targets: [String])
    /// The release's version is not one npm accepts.
    case badVersion(version: String)
    /// A binary the build should have made is not there.
    case missingBinary(binary: String, path: String, target: String)
    /// `NPM_TOKEN` is not set: nothing was sent.
    case noToken(registry: String)
    /// A package of this release is not in dist/.
    case missingPackage(path: String, tag: String)
    /// The tarball holds no readable package.json.
    case unreadablePackage(path: String, reason: String)
    /// The registry holds this version of the package with other bytes.
    case versionDiffers(package: String, version: String, registry: String, published: String, local: String)
    /// The registry refused or failed a request.
    case registry(request: String, status: Int, message: String)

    package var exitCode: RelctlExitCode {
        switch self {
        case .notConfigured, .noPlatform, .samePlatform, .badVersion, .missingBinary, .noToken, .missingPackage, .unreadablePackage:
            return .badInput
        case .versionDiffers, .registry: return .failure
        }
    }

    package var diagnostics: [Diagnostic] {
        switch self {
        case .notConfigured(let config):
            return [Diagnostic(file: config, "no [npm] table: nothing to publish to npm (add [npm] package = \"…\")")]
        case .noPlatform(let config, let targets):
            return [
                Diagnostic(
                    file: config,
                    "[npm] has no target npm can name (os and cpu) among \(targets.isEmpty ? "no targets" : targets.joined(separator: ", ")); add a [[target]] such as x86_64-unknown-linux-gnu or remove [npm]"
                )
            ]
        case .samePlatform(let config, let name, let targets):
            return [
                Diagnostic(
                    file: config,
                    "targets \(targets.joined(separator: " and ")) would both be the npm package `\(name)`; keep one of them"
                )
            ]
        case .badVersion(let version):
            return [
                Diagnostic(
                    "version `\(version)` is not a SemVer version npm accepts; [npm] packages need one (e.g. 1.2.0, 1.2.0-rc.1)")
            ]
        case .missingBinary(let binary, let path, let target):
            return [
                Diagnostic(
                    file: path, "binary `\(binary)` for \(target) not found; run `relctl build --target \(target)` first")
            ]
        case .noToken(let registry):
            return [
                Diagnostic(
                    "no npm token: set NPM_TOKEN (an automation or granular token allowed to publish to \(registry)); nothing was sent"
                )
            ]
        case .missingPackage(let path, let tag):
            return [
                Diagnostic(
                    file: path, "npm package of \(tag) not found; write it with `relctl release` (or copy dist/ back) first")
            ]
        case .unreadablePackage(let path, let reason):
            return [Diagnostic(file: path, "not an npm package: \(reason)")]
        case .versionDiffers(let package, let version, let registry, let published, let local):
            return [
                Diagnostic(
                    "\(package)@\(version) is already on \(registry) with other contents (integrity \(published), this release's \(local)); npm never replaces a published version: release a new version"
                )
            ]
        case .registry(let request, let status, let message):
            return [Diagnostic("\(request): the npm registry answered HTTP \(status): \(message)")]
        }
    }

    package var description: String { diagnostics.map(\.message).joined(separator: "\n") }
}
