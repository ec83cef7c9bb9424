import Foundation
import RelctlBasics

/// `[publish]`: where `relctl publish` sends the release.
public struct PublishSettings: Sendable {
    /// `OWNER/REPO` on GitHub; nil means `GITHUB_REPOSITORY`, else the release remote's URL.
    public var github: String?
    /// `group/subgroup/project` on GitLab; nil means `CI_PROJECT_PATH` (with `--forge gitlab`).
    public var gitlab: String?
    /// `OWNER/REPO` on Gitea or Forgejo; nil means the release remote's URL (with `--forge gitea`).
    public var gitea: String?
    /// `[publish] ID = "…"` for each publisher a program built on relctl added (`RelctlExtensions.addPublisher`).
    public var extensions: [String: String] = [:]
    package init() {}
}
