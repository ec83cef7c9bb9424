import Foundation
import RelctlBasics

/// Why building or pushing an image failed. Registry refusals name the registry, the repository
/// and what to do; they are failed steps (exit 1), as is a build that cannot write.
package enum ImageError: RelctlError, CustomStringConvertible, StorageFaultCarrying {
    case noImages(config: String)
    case unknownImage(name: String, known: [String])
    case noTargets(image: String)
    case unsupportedPlatform(target: String)
    case badContent(what: String, reason: String)
    case writeFailed(path: String, reason: String)
    /// The storage refused a write of the image layout (`StorageFault`); `code` is the `errno`.
    case writeRefused(path: String, code: Int32)
    case badTag(tag: String, image: String)
    /// Credentials missing or refused.
    case unauthorized(registry: String, repository: String, detail: String)
    case denied(registry: String, repository: String, detail: String)
    case unreachable(registry: String, reason: String)
    case registry(registry: String, repository: String, action: String, status: Int, detail: String)
    case noBasePlatform(base: String, platform: String, available: [String])
    case credentialHelper(helper: String, registry: String, reason: String)
    /// A Docker `config.json` relctl cannot use.
    case badDockerConfig(path: String, registry: String, problem: DockerConfigProblem)
    /// An `[[image]] files` source that is not a regular file.
    case notAFile(path: String, image: String)
    /// A dynamically linked binary in a `scratch` image, which has no loader to start it.
    case dynamicOnScratch(image: String, binary: String, target: String, interpreter: String)
    /// A layer cache setting (`RELCTL_LAYER_CACHE`, `RELCTL_LAYER_CACHE_MAX`) relctl cannot use.
    case badCacheSetting(name: String, value: String, expected: String)

    /// What is wrong with a Docker config file.
    package enum DockerConfigProblem: Sendable {
        case invalid(reason: String)
        case badAuth(key: String)
        case identityTokenOnly(key: String)
        /// A `credHelpers`/`credsStore` value that is not a plain name looked up on PATH.
        case badHelperName(helper: String)
    }

    package var exitCode: RelctlExitCode {
        switch self {
        case .noImages, .unknownImage, .noTargets, .unsupportedPlatform, .badTag, .noBasePlatform,
            .badDockerConfig, .notAFile, .badCacheSetting, .dynamicOnScratch:
            return .badInput
        default: return .failure
        }
    }

    package var diagnostics: [Diagnostic] {
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
        case let .dynamicOnScratch(image, binary, target, interpreter):
            return [
                Diagnostic(
                    "image `\(image)`: `\(binary)` for \(target) is dynamically linked (its ELF interpreter is \(interpreter)), and a `scratch` image has no such loader or C library, so the container could not start; build it statically (a `*-linux-musl` target, or CGO_ENABLED=0 for Go), or set the image's `base` to one that has \(interpreter), pinned by digest (for glibc: `gcr.io/distroless/base-debian12@sha256:…`, or `gcr.io/distroless/cc-debian12@sha256:…` for Rust)"
                )
            ]
        case let .writeFailed(path, reason):
            return [Diagnostic(file: path, "cannot write the image: \(reason)")]
        case let .writeRefused(path, code):
            return [Diagnostic(file: path, "cannot write the image: \(StorageFault.reason(code))")]
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
        case let .badDockerConfig(path, registry, problem):
            return [Diagnostic(file: path, problem.explanation(registry: registry))]
        case let .notAFile(path, image):
            return [
                Diagnostic(
                    file: path,
                    "listed in [[image]] `\(image)` files but is not a regular file; fix the path in relctl.toml")
            ]
        case let .badCacheSetting(name, value, expected):
            return [Diagnostic("\(name)=`\(value)`: expected \(expected) (docs/images.md, \"Layer cache\")")]
        }
    }

    package var description: String { message }

    package var storageFault: Int32? {
        if case .writeRefused(_, let code) = self { return code }
        return nil
    }
}

extension ImageError.DockerConfigProblem {
    package func explanation(registry: String) -> String {
        switch self {
        case .invalid(let reason):
            return "is not a valid Docker config file (\(reason)); fix it or run `docker login \(registry)` again"
        case .badAuth(let key):
            return "the `auth` of \(key) is not base64 of `user:password`; run `docker login \(registry)` again"
        case .badHelperName(let helper):
            return
                "names the credential helper `\(helper)`, which relctl does not run: a helper is `docker-credential-NAME` looked up on PATH, and NAME may hold only letters, digits, `.`, `_` and `-` (no `/`); fix `credHelpers`/`credsStore` for \(registry)"
        case .identityTokenOnly(let key):
            return
                "holds only an identity token for \(key), which relctl cannot use; log in with a user name and password or token (`docker login \(registry) -u USER`)"
        }
    }
}
