import Foundation

/// Why building or pushing an image failed. Registry refusals name the registry, the repository
/// and what to do; they are failed steps (exit 1), as is a build that cannot write.
public enum ImageError: RelctlError, CustomStringConvertible {
    case noImages(config: String)
    case unknownImage(name: String, known: [String])
    case noTargets(image: String)
    case unsupportedPlatform(target: String)
    case badContent(what: String, reason: String)
    case writeFailed(path: String, reason: String)
    case badTag(tag: String, image: String)
    /// Credentials missing or refused.
    case unauthorized(registry: String, repository: String, detail: String)
    case denied(registry: String, repository: String, detail: String)
    case unreachable(registry: String, reason: String)
    case registry(registry: String, repository: String, action: String, status: Int, detail: String)
    case noBasePlatform(base: String, platform: String, available: [String])
    case credentialHelper(helper: String, registry: String, reason: String)

    public var exitCode: RelctlExitCode {
        switch self {
        case .noImages, .unknownImage, .noTargets, .unsupportedPlatform, .badTag, .noBasePlatform: return .badInput
        default: return .failure
        }
    }

    public var diagnostics: [Diagnostic] {
        switch self {
        case let .noImages(config):
            return [
                Diagnostic(
                    file: config, "no [[image]] tables; add one with at least `repository = \"ghcr.io/OWNER/NAME\"`")
            ]
        case let .unknownImage(name, known):
            return [
                Diagnostic(
                    "no [[image]] named `\(name)`\(Suggestion.hint(for: name, in: known)); configured: \(known.joined(separator: ", "))"
                )
            ]
        case let .noTargets(image):
            return [
                Diagnostic(
                    "image `\(image)`: none of the selected targets is a Linux target of this image; check --target and the image's `targets`"
                )
            ]
        case let .unsupportedPlatform(target):
            return [
                Diagnostic(
                    "target `\(target)` has no OCI platform (only Linux on amd64, arm64, 386, arm, riscv64, ppc64le, s390x, loong64); remove it from the image's `targets`"
                )
            ]
        case let .badContent(what, reason):
            return [Diagnostic("\(what) is not valid: \(reason)")]
        case let .writeFailed(path, reason):
            return [Diagnostic(file: path, "cannot write the image: \(reason)")]
        case let .badTag(tag, image):
            return [
                Diagnostic(
                    "image `\(image)`: tag `\(tag)` is not a valid image tag (letters, digits, `_`, `.`, `-`, at most 128); fix `tags`"
                )
            ]
        case let .unauthorized(registry, repository, detail):
            return [
                Diagnostic(
                    "401 from \(registry) for \(repository)\(detail.isEmpty ? "" : " (\(detail))"): run `docker login \(registry)` (or log in with your CI's login action), or set DOCKER_CONFIG to the folder holding config.json"
                )
            ]
        case let .denied(registry, repository, detail):
            return [
                Diagnostic(
                    "\(registry) refused push access to \(repository)\(detail.isEmpty ? "" : " (\(detail))"): the credentials are valid but lack write permission; grant it (GHCR: `packages: write` on the job, or link the package to the repository)"
                )
            ]
        case let .unreachable(registry, reason):
            return [
                Diagnostic(
                    "cannot reach the registry \(registry): \(reason); check the host name, the network and any proxy")
            ]
        case let .registry(registry, repository, action, status, detail):
            return [
                Diagnostic(
                    "\(registry) answered \(status) to \(action) in \(repository)\(detail.isEmpty ? "" : ": \(detail)"); nothing was tagged, run `relctl image --tag TAG --push` again once fixed"
                )
            ]
        case let .noBasePlatform(base, platform, available):
            return [
                Diagnostic(
                    "base image \(base) has no \(platform) variant (it has: \(available.joined(separator: ", "))); pick a multi-platform base or drop that target from the image"
                )
            ]
        case let .credentialHelper(helper, registry, reason):
            return [
                Diagnostic(
                    "credential helper docker-credential-\(helper) failed for \(registry): \(reason); check it is installed and logged in (`docker login \(registry)`)"
                )
            ]
        }
    }

    public var description: String { message }
}
