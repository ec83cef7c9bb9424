import Foundation
import RelctlBasics

/// One `[[package]]` table: a native Linux package (`format = "deb"` or `"rpm"`) per Linux target.
package struct LinuxPackageSettings: Sendable {
    /// A format id from `LinuxPackageFormats` (`deb`, `rpm`).
    package var format: String
    /// Overrides of `[project]`'s description, license, homepage and maintainer for this format.
    package var metadata = ProjectMetadata()
    /// The package name (default: the project name, lowercased, as both formats require).
    package var name: String?
    /// Debian `Section` (default `utils`).
    package var section: String = "utils"
    /// rpm `Group` (default `Applications/System`); rpmlint counts rpm's own `Unspecified` as none.
    package var group: String = "Applications/System"
    /// Dependencies in the format's own syntax (`libc6 (>= 2.31)`, `glibc >= 2.31`).
    package var depends: [String] = []
    /// The full license text for the copyright file (default: LICENSE, LICENSE.md, LICENSE.txt or
    /// COPYING in the project root, the first that exists).
    package var licenseFile: String?
    /// rpm `Release` (default `1`).
    package var release: String = "1"
    /// Extra files installed by the package (man pages, shell completions): `from` in the
    /// project, `to` an absolute path under `/usr`. Files for `/usr/share/man` are gzipped.
    package var files: [(from: String, to: String)] = []
    /// rpm only: the OpenSSH Ed25519 private key (a file relative to the project root) whose
    /// OpenPGP form signs the rpm header; `RELCTL_RPM_SIGNING_KEY` (the key's text) wins over it.
    package var signingKey: String?
    /// Linux targets to package (default: every Linux target).
    package var targets: [String]?
    /// The config line of the table, for messages.
    package var line: Int?

    package init(format: String) { self.format = format }

    /// Why a `files` destination cannot be installed by the package, or nil. Only `/usr` (not
    /// `/usr/local`, which belongs to the administrator): files in `/etc` would need conffile
    /// handling, which these packages do not do.
    package static func problem(installPath path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard path.hasPrefix("/usr/"), !path.hasPrefix("/usr/local/"), !path.hasSuffix("/"),
            !parts.dropFirst().contains(where: { $0.isEmpty || $0 == "." || $0 == ".." })
        else {
            return
                "must be an absolute, normalised file path under /usr/ (not /usr/local/), e.g. /usr/share/man/man1/NAME.1"
        }
        return nil
    }
}

/// `[apt]`, `[dnf]` and `[repository]`: the signed package repositories `relctl repository` writes
/// into `dist/apt/` and `dist/dnf/`.
public struct RepositorySettings: Sendable, Equatable {
    /// `[apt] suite`: `dists/SUITE`; nil when `[apt]` is absent.
    package var aptSuite: String?
    /// `[dnf] enabled`.
    package var dnf = false
    /// `[repository] signing-key`: an armored OpenPGP secret key file (or env `RELCTL_REPOSITORY_KEY`).
    package var signingKey: String?
    /// `[repository] previous`: the root of the published repository (a folder or URL) to extend.
    package var previous: String?
    /// `[repository] url`: where the published root (holding apt/ and dnf/) is served; the
    /// release notes then tell users how to add it.
    package var url: String?
    /// `[repository] branch`: the branch of the project's remote (`[release] remote`) that
    /// `--publish` commits `apt/` and `dnf/` to (`gh-pages`); nil: not published by relctl.
    package var branch: String?
    /// `[repository] folder`: where in that branch `apt/` and `dnf/` go (default: its root).
    package var folder: String?

    package init() {}

    package var isEnabled: Bool { aptSuite != nil || dnf }

    /// A branch name git takes and a refspec cannot misread: plain components of letters,
    /// digits, `-`, `_` and `.`, none starting with `-` or `.` nor ending in `.lock`.
    package static func isBranchName(_ name: String) -> Bool {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        return !name.isEmpty && name.count <= 200
            && parts.allSatisfy { part in
                !part.isEmpty && part.first != "-" && part.first != "." && !part.hasSuffix(".lock")
                    && part.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || "-_.".contains($0) }
            } && !name.contains("..")
    }
}
