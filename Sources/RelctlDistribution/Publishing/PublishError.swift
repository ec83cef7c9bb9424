import Foundation
import RelctlBasics

/// Problems publishing a release. Missing credentials or inputs are bad input (exit 2) and are
/// found before any request; whatever the API refuses is a failed step (exit 1).
package enum PublishError: RelctlError, CustomStringConvertible {
    /// Which of a listing's limits a server went past.
    package enum ListingLimit: Sendable, Equatable {
        case pages(Int)
        case bytes(Int64)
    }

    case noToken(publisher: String, variables: [String])
    case noRepository(hint: String)
    case badRepository(value: String, source: String)
    case badAPIURL(value: String)
    /// A forge's API base from the environment that is not an http(s) URL, or none at all.
    case badForgeURL(variable: String, value: String, example: String)
    case noForgeURL(forge: String, variables: [String], example: String)
    /// `[publish] gitlab` or `CI_PROJECT_PATH` that is not GROUP[/SUBGROUP...]/PROJECT.
    case badProjectPath(value: String, source: String)
    /// `[publish] gitlab`/`gitea` absent and nothing else names the project.
    case noProject(forge: String, hint: String)
    /// GitLab: a package file of this version whose newest same-name copy differs from the local file.
    case differingPackageFiles(project: String, package: String, names: [String])
    /// GitLab: the release exists and lacks a link to an asset whose package file now differs.
    case replaceUnsupported(forge: String, hint: String)
    /// Publishing to several forges stopped at one: what is done, what is left.
    case forgeStopped(forge: String, done: [String], left: [String])
    case unknownPublisher(id: String, known: [String])
    case missingFiles(sums: String, names: [String])
    case badAssetName(sums: String, name: String, line: Int?)
    case changedFiles(sums: String, names: [String])
    /// dist/manifest.json is another tag's: its list and files are not this release's.
    case otherRelease(manifest: String, manifestTag: String, tag: String)
    /// dist/manifest.json names no release at all (`relctl checksum` where HEAD had no release
    /// tag and the archive names spell none): published as this tag's, it would be wrong.
    case manifestNamesNoRelease(manifest: String, tag: String)
    /// Same-name assets already on the release whose SHA256 differs from the local file.
    case differingAssets(release: String, names: [String])
    /// `--replace` on a release that is already public: deleting first could leave the public
    /// release without a file its SHA256SUMS lists, so relctl does not do it.
    case replaceOnPublic(release: String, names: [String])
    /// The tag's release is already published and lacks (`missing`) or holds other bytes under
    /// (`differing`) assets of this release: a published release is never changed, so nothing
    /// was sent (GitHub's immutable releases would answer 422; elsewhere users would get other files).
    case publishedReleaseDiffers(release: String, missing: [String], differing: [String])
    /// The API answered with an error: its message and documentation URL, as given.
    case api(request: String, status: Int, message: String, documentationURL: String?, details: [String])
    /// The tag is not on the server: publishing would create it on the default branch.
    case tagNotPushed(tag: String, repository: String)
    /// The tag on the server is not the local one: the assets were built from another commit.
    case tagDiffers(tag: String, repository: String, remote: String, local: String)
    /// After uploading, the release does not hold the full asset set.
    case incomplete(release: String, problems: [String])
    /// An upload failed in transport; `release` is `TAG (id N)`, the release stays a draft.
    case uploadFailed(asset: String, release: String, reason: String)
    /// A listing that does not end: more pages, or more bytes over its pages, than relctl reads
    /// for one (`ForgeAPIClient.list`).
    case listingTooLong(forge: String, listing: String, limit: ListingLimit)
    /// GitLab: a release link with an asset's name that leads somewhere other than the asset's
    /// package file: the release would send users elsewhere.
    case foreignLink(release: String, name: String, url: String, expected: String)
    /// `RELCTL_HTTP_RETRIES` is not a whole number of at least 1.
    case badRetries
    /// A timing variable that is not a positive number.
    case badNumber(variable: String, value: String)

    package var exitCode: RelctlExitCode {
        switch self {
        case .noToken, .noRepository, .badRepository, .badAPIURL, .unknownPublisher, .missingFiles, .badAssetName,
            .badRetries, .badNumber, .otherRelease, .manifestNamesNoRelease, .badForgeURL, .noForgeURL, .badProjectPath,
            .noProject,
            .replaceUnsupported:
            return .badInput
        case .changedFiles, .differingAssets, .replaceOnPublic, .publishedReleaseDiffers, .api, .incomplete,
            .tagNotPushed, .tagDiffers,
            .uploadFailed, .differingPackageFiles, .forgeStopped, .listingTooLong, .foreignLink:
            return .failure
        }
    }

    package var diagnostics: [Diagnostic] {
        switch self {
        case let .uploadFailed(asset, release, reason):
            return [
                Diagnostic(
                    "uploading `\(asset)` to release \(release): \(reason); the release stays a draft; run the same command again to finish it"
                )
            ]
        case .badRetries:
            return [Diagnostic("RELCTL_HTTP_RETRIES must be a whole number of attempts, at least 1")]
        case let .badNumber(variable, value):
            return [Diagnostic("\(variable) must be a positive number, found `\(value)`")]
        case let .noToken(publisher, variables):
            return [
                Diagnostic(
                    "no \(publisher) token: set \(variables.joined(separator: " or ")) (a token allowed to write the repository's contents); nothing was sent"
                )
            ]
        case .noRepository(let hint):
            return [Diagnostic("cannot tell which repository to publish to: \(hint)")]
        case let .badRepository(value, source):
            return [Diagnostic("\(source): `\(value)` is not OWNER/REPO")]
        case .badAPIURL(let value):
            return [
                Diagnostic(
                    "GITHUB_API_URL `\(value)` is not an http(s) URL (e.g. https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise Server)"
                )
            ]
        case let .badForgeURL(variable, value, example):
            return [Diagnostic("\(variable) `\(value)` is not an http(s) URL (e.g. \(example)); nothing was sent")]
        case let .noForgeURL(forge, variables, example):
            return [
                Diagnostic(
                    "no \(forge) server: set \(variables.joined(separator: " or ")) (e.g. \(example)); nothing was sent"
                )
            ]
        case let .badProjectPath(value, source):
            return [Diagnostic("\(source): `\(value)` is not a GitLab project path, GROUP[/SUBGROUP...]/PROJECT")]
        case let .noProject(forge, hint):
            return [Diagnostic("cannot tell which \(forge) project to publish to: \(hint); nothing was sent")]
        case let .differingPackageFiles(project, package, names):
            return names.map {
                Diagnostic(
                    "\(project): package \(package) already holds `\($0)` with a different SHA256 (downloads serve that one); it is never replaced silently: delete that package file in GitLab (Deploy > Package registry) and run again; nothing was changed"
                )
            }
        case let .replaceUnsupported(forge, hint):
            return [Diagnostic("--replace is not supported when publishing to \(forge): \(hint)")]
        case let .forgeStopped(forge, done, left):
            let finished = done.isEmpty ? "" : "published to \(done.joined(separator: ", ")); "
            return [
                Diagnostic(
                    "\(finished)stopped at \(forge), so \(left.joined(separator: ", ")) not done yet; run the same command again (forges already done are checked and left as they are)"
                )
            ]
        case let .unknownPublisher(id, known):
            return [
                Diagnostic(
                    "unknown publisher `\(id)`\(Suggestion.hint(for: id, in: known)); known publishers: \(known.joined(separator: ", "))"
                )
            ]
        case let .missingFiles(sums, names):
            return names.map {
                Diagnostic(
                    file: sums,
                    "lists `\($0)`, which is not in its folder; rebuild it (`relctl package`) or rewrite the list (`relctl checksum`); nothing was sent"
                )
            }
        case let .manifestNamesNoRelease(manifest, tag):
            return [
                Diagnostic(
                    file: manifest,
                    "names no release (no tag, version or commit: `relctl checksum` ran where HEAD carried no release tag and the archive names spell none), so it cannot go up as \(tag)'s; run `relctl checksum` on the commit tagged \(tag) and publish again; nothing was sent"
                )
            ]
        case let .otherRelease(manifest, manifestTag, tag):
            return [
                Diagnostic(
                    file: manifest,
                    "is the manifest of \(manifestTag), not \(tag): dist/ holds another release, whose files must not go up with \(tag); rebuild \(tag)'s files (`relctl release \(tag)`, or `relctl checksum` over its archives) and publish again; nothing was sent"
                )
            ]
        case let .badAssetName(sums, name, line):
            return [
                Diagnostic(
                    file: sums, line: line,
                    "`\(name)` is not a plain file name; a release asset cannot live in a folder")
            ]
        case let .changedFiles(sums, names):
            return names.map {
                Diagnostic(
                    file: sums,
                    "`\($0)` no longer has the SHA256 listed here; rebuild it or rewrite the list (`relctl checksum`); nothing was sent"
                )
            }
        case let .differingAssets(release, names):
            return names.map {
                Diagnostic(
                    "\(release): asset `\($0)` is already there with a different SHA256; it is never replaced silently: delete it on the release page, or run again with --replace"
                )
            }
        case let .publishedReleaseDiffers(release, missing, differing):
            return missing.map { Diagnostic("\(release) is already published without asset `\($0)`") }
                + differing.map {
                    Diagnostic("\(release) is already published with another `\($0)` (a different SHA256)")
                }
                + [
                    Diagnostic(
                        "a published release is never changed (GitHub's immutable releases refuse it, and users may have downloaded it already), so nothing was sent: release these files as a new version, or delete the release on the forge by hand if it was never meant to be public"
                    )
                ]
        case let .replaceOnPublic(release, names):
            return names.map {
                Diagnostic(
                    "\(release) is public and its asset `\($0)` has a different SHA256; relctl does not --replace on a public release (GitHub cannot swap an asset in one step: a delete first and a failed upload would leave the release without a file its SHA256SUMS lists). Publish a new version, or turn the release back into a draft on GitHub and run again with --replace"
                )
            }
        case let .api(request, status, message, documentationURL, details):
            // The message, details and URL are the server's words: one line each, never a line of their own.
            var line = "\(request): HTTP \(status): \(outside: message)"
            if !details.isEmpty { line += " (\(outside: details.joined(separator: "; ")))" }
            if let documentationURL { line += " — see \(outside: documentationURL)" }
            return [Diagnostic(line)]
        case let .listingTooLong(forge, listing, limit):
            let passed =
                switch limit {
                case .pages(let pages):
                    "still names a next page after \(pages) pages, the most relctl follows for one listing"
                case .bytes(let bytes):
                    "passed \(ByteCount.format(bytes)) over its pages, the most relctl reads for one listing"
                }
            return [
                Diagnostic(
                    "\(forge): the listing \(listing) \(passed); relctl stops rather than act on part of the list. Check that the API URL names the forge itself (not a proxy or another server), then run the same command again"
                )
            ]
        case let .foreignLink(release, name, url, expected):
            return [
                Diagnostic(
                    "\(release): the release link `\(outside: name)` leads to \(outside: url), not to the package file \(expected): the release would send users elsewhere, so it is not published as it is; delete or correct that link in GitLab (Deploy > Releases > Edit release) and run again"
                )
            ]
        case let .tagNotPushed(tag, repository):
            return [
                Diagnostic(
                    "tag \(tag) is not in \(repository); push it first (`git push origin \(tag)`, or `relctl release \(tag) --push`): a release of a missing tag would tag the default branch instead; nothing was changed"
                )
            ]
        case let .tagDiffers(tag, repository, remote, local):
            return [
                Diagnostic(
                    "tag \(tag) in \(repository) is object \(remote.prefix(12)), here it is \(local.prefix(12)): dist/ was not built from the tag that would be published; fetch the tag (`git fetch --tags --force`) and rebuild; nothing was changed"
                )
            ]
        case let .incomplete(release, problems):
            return problems.map {
                Diagnostic("\(release): \($0); the release stays a draft; run the same command again")
            }
        }
    }

    package var description: String { message }
}
