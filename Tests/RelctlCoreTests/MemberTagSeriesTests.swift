import RelctlTestTraits
import Testing

@testable import RelctlProject

/// Which member the repository's bare tag series (`v6.2.6`) belongs to (`MemberTagSeries.read`).
@Suite("the bare tag series of a workspace", .timeLimit(.minutes(30)))
struct MemberTagSeriesTests {
    func member(_ folder: String, _ name: String, _ version: String, package: String? = nil) -> DiscoveredMember {
        DiscoveredMember(folder: folder, name: name, packageName: package, version: version, unpublished: false)
    }

    /// vite on its `v6.2` maintenance branch: packages/vite holds 6.2.6 while main has tagged
    /// v6.3.4; a test app holds 1.0.0, which the series released in 2020. Before, no member held
    /// the newest tags, vite got `{member}@{version}` and `plan` found no release of it.
    @Test func onAMaintenanceBranchTheMemberHoldingTheHighestReleasedVersionOwnsIt() throws {
        let members = [
            member("packages/vite", "vite", "6.2.6"),
            member("packages/plugin-legacy", "plugin-legacy", "6.0.2", package: "@vitejs/plugin-legacy"),
            member("playground/app", "test-app", "1.0.0"),
        ]
        let tags = ["v1.0.0", "v6.2.5", "v6.2.6", "v6.3.4", "plugin-legacy@6.1.0", "plugin-legacy@6.1.1"]
        let series = try #require(MemberTagSeries.read(members: members, tags: tags))
        #expect(series.format == "{member}@{version}")
        #expect(series.bare?.name == "vite", "\(String(describing: series.bare))")
        #expect(series.exceptions.map(\.name) == ["vite"])
        #expect(series.exceptions.first?.format == "v{version}")
    }

    /// actix-web: the crates `actix-web`, `actix-http`, … are tagged `web-v4.15.0`, `http-v3.13.3`:
    /// the workspace's shared first word left off. Before, init wrote `{member}-v{version}` and
    /// `plan` found no release of either (actix-web 3 of 10 in the back-test, its tags 0 of 10).
    @Test func membersTaggedWithoutTheirSharedFirstWordAreRead() throws {
        let members = [
            member("actix-web", "actix-web", "4.15.0"), member("actix-http", "actix-http", "3.13.3"),
            member("actix-http-test", "actix-http-test", "3.2.0"), member("awc", "awc", "3.8.0"),
        ]
        let tags = ["web-v4.14.0", "web-v4.15.0", "http-v3.13.3", "http-test-v3.2.0", "awc-v3.8.0"]
        let series = try #require(MemberTagSeries.read(members: members, tags: tags))
        let formats = Dictionary(uniqueKeysWithValues: series.exceptions.map { ($0.name, $0.format) })
        #expect(formats["actix-web"] == "web-v{version}", "\(series.exceptions)")
        #expect(formats["actix-http"] == "http-v{version}")
        #expect(formats["actix-http-test"] == "http-test-v{version}")
        #expect(formats["awc"] == nil && series.format == "{member}-v{version}")
    }

    /// aws-lambda-rust-runtime: the crate `lambda_runtime` lives in `lambda-runtime/` and is tagged
    /// `lambda-runtime-0.11.1`. Before, init wrote `{member}-{version}` alone, and `plan` found no
    /// release of any crate whose name has an `_` (0 of 20 back-test points, tags included).
    @Test func membersTaggedWithTheirNameSpelledWithDashesAreRead() throws {
        let members = [
            member("lambda-runtime", "lambda_runtime", "0.11.0"), member("lambda-http", "lambda_http", "0.11.0"),
            member("lambda-runtime-api-client", "lambda_runtime_api_client", "0.11.0"),
            member("lambda-extension", "lambda-extension", "0.10.0"),
        ]
        let tags = [
            "lambda-runtime-0.10.0", "lambda-runtime-0.11.0", "lambda-http-0.11.0", "lambda-runtime-api-client-0.11.0",
            "lambda-extension-0.10.0",
        ]
        let series = try #require(MemberTagSeries.read(members: members, tags: tags))
        let formats = Dictionary(uniqueKeysWithValues: series.exceptions.map { ($0.name, $0.format) })
        #expect(formats["lambda_runtime"] == "lambda-runtime-{version}", "\(series.exceptions)")
        #expect(formats["lambda_http"] == "lambda-http-{version}")
        #expect(formats["lambda_runtime_api_client"] == "lambda-runtime-api-client-{version}")
        #expect(formats["lambda-extension"] == nil && series.format == "{member}-{version}")
        // A spelling another member holds is that member's: `a_b` beside a member named `a-b`.
        let clash = [member("a_b", "a_b", "1.0.0"), member("a-b", "a-b", "1.0.0")]
        #expect(MemberTagSeries.otherSpellings(of: clash).isEmpty)
    }

    /// minijinja: a lockstep Cargo workspace tagged `2.24.0`, whose Go module `minijinja-go` is
    /// tagged `minijinja-go/v2.24.0` on the same commit since 2.15.0 (the first on a fix-up commit).
    /// init made it a workspace of `{member}/v{version}` members, none holding the bare series:
    /// 0 of 10 release points. The bare series is the repository's release.
    @Test func memberTagsTwinningTheBareSeriesLeaveItTheRepositorys() {
        let members = [
            member("minijinja", "minijinja", "2.24.0"), member("minijinja-cli", "minijinja-cli", "2.24.0"),
            member("minijinja-go", "minijinja-go", "2.24.0"),
        ]
        var tags = ["2.14.0", "2.15.0", "minijinja-go/v2.15.0"]
        var commits = ["2.14.0": "c14", "2.15.0": "c15", "minijinja-go/v2.15.0": "c15b"]
        for minor in 16...19 {
            tags += ["2.\(minor).0", "minijinja-go/v2.\(minor).0"]
            commits["2.\(minor).0"] = "c\(minor)"
            commits["minijinja-go/v2.\(minor).0"] = "c\(minor)"
        }
        #expect(MemberTagSeries.read(members: members, tags: tags, commits: commits) == nil)
        // Tags of their own commits are a member's series, as before.
        commits["minijinja-go/v2.19.0"] = "elsewhere"
        commits["minijinja-go/v2.18.0"] = "elsewhere too"
        #expect(MemberTagSeries.read(members: members, tags: tags, commits: commits)?.format == "{member}/v{version}")
    }

    /// jupyter notebook: its Python package is tagged `v7.5.1`, and every npm package of its
    /// workspace `@jupyter-notebook/app@7.5.1` on the same commit, so the member tags outnumber the
    /// bare ones (390 against 111); its prereleases are spelled per ecosystem (`v7.0.0a1` beside
    /// `@jupyter-notebook/app@7.0.0-alpha.1`). init wrote a workspace of fourteen members, none at
    /// the root: no row for the release, 0 of 10 points. Each release counts once, finals compared.
    @Test func manyMembersTaggedAtEachBareReleaseLeaveItTheRepositorys() {
        let members = ["app", "application", "tree", "lab-extension"].map {
            member("packages/\($0)", $0, "7.5.1", package: "@jupyter-notebook/\($0)")
        }
        var tags: [String] = []
        var commits: [String: String] = [:]
        for old in ["v5.7.0", "v6.0.0", "v6.4.0", "v6.5.0"] {
            tags.append(old)
            commits[old] = "c-\(old)"
        }
        let releases = ["7.0.0", "7.1.0", "7.2.0", "7.3.0", "7.4.0", "7.5.0", "7.5.1"]
        for version in releases {
            tags.append("v\(version)")
            commits["v\(version)"] = "c\(version)"
            for name in ["app", "application", "tree", "lab-extension"] {
                tags.append("@jupyter-notebook/\(name)@\(version)")
                commits["@jupyter-notebook/\(name)@\(version)"] = "c\(version)"
            }
        }
        tags += ["v7.0.0a1", "@jupyter-notebook/app@7.0.0-alpha.1", "@jupyter-notebook/tree@7.0.0-alpha.1"]
        commits["v7.0.0a1"] = "ca1"
        commits["@jupyter-notebook/app@7.0.0-alpha.1"] = "ca1"
        commits["@jupyter-notebook/tree@7.0.0-alpha.1"] = "ca1"
        #expect(MemberTagSeries.read(members: members, tags: tags, commits: commits) == nil)
        // No bare release without its member tags (the members tagged since the first release):
        // which series is the repository's the tags do not say, and the members keep theirs.
        let sinceTheFirst = tags.filter { !["v5.7.0", "v6.0.0", "v6.4.0", "v6.5.0"].contains($0) }
        let series = MemberTagSeries.read(members: members, tags: sinceTheFirst, commits: commits)
        #expect(series?.format == "@jupyter-notebook/{member}@{version}", "\(String(describing: series))")
        // Nor when a fifth of the member tags or more sit on commits of their own.
        var some = commits
        for version in ["7.4.0", "7.5.0", "7.5.1"] {
            for name in ["app", "application", "tree"] { some["@jupyter-notebook/\(name)@\(version)"] = "x\(version)\(name)" }
        }
        #expect(MemberTagSeries.read(members: members, tags: tags, commits: some) != nil)
    }

    /// A short name is only taken where it names one member: `core` is a member of its own here,
    /// and `acme-util`'s and `other-util`'s `util` would name two.
    @Test func aShortNameTakenOrSharedIsNotRead() {
        let members = [
            member("core", "core", "1.0.0"), member("acme-core", "acme-core", "2.0.0"),
            member("acme-util", "acme-util", "1.0.0"), member("other-util", "other-util", "1.0.0"),
            member("other-cli", "other-cli", "1.0.0"), member("solo-thing", "solo-thing", "1.0.0"),
        ]
        #expect(MemberTagSeries.shortNames(of: members) == ["other-cli": "cli"])
    }

    @Test func theMemberHoldingTheNewestReleaseStillComesFirst() throws {
        let members = [member("packages/vite", "vite", "6.3.4"), member("packages/other", "other", "6.2.6")]
        let tags = ["v6.2.6", "v6.3.4", "plugin-legacy@6.1.1"]
        let series = try #require(
            MemberTagSeries.read(members: members + [member("packages/plugin-legacy", "plugin-legacy", "6.1.1")], tags: tags))
        #expect(series.bare?.name == "vite")
    }

    @Test func twoMembersHoldingTheSameHighestReleaseOwnNothing() throws {
        let members = [
            member("packages/a", "a", "2.0.0"), member("packages/b", "b", "2.0.0"),
            member("packages/c", "c", "1.0.0"),
        ]
        let tags = ["v1.0.0", "v2.0.0", "v3.0.0", "c@1.0.0"]
        let series = try #require(MemberTagSeries.read(members: members, tags: tags))
        #expect(series.bare == nil)
    }

    /// tiptap: every package tagged `@tiptap/core@3.0.0-next.3` until 2024, then one `v3.x.y` a
    /// release, every package at that version. Init split the line into 76 member series (4 of 10
    /// releases right, plan 22 s); the member tags are stale now and the line is one series.
    @Test func aLockstepLineThatLeftMemberTagsForOneBareSeriesIsOneSeries() throws {
        let members = [
            member("packages/core", "core", "3.9.0", package: "@tiptap/core"),
            member("packages/react", "react", "3.9.0", package: "@tiptap/react"),
        ]
        var tags = ["core", "react"].flatMap { name in (1...3).map { "@tiptap/\(name)@3.0.0-next.\($0)" } }
        var dates = Dictionary(uniqueKeysWithValues: tags.enumerated().map { ($1, 100 + $0) })
        for minor in 0...9 {
            tags.append("v3.\(minor).0")
            dates["v3.\(minor).0"] = 200 + minor
        }
        #expect(MemberTagSeries.read(members: members, tags: tags, dates: dates) == nil)
        // Nine bare releases since: not yet stale.
        let fewer = tags.filter { $0 != "v3.0.0" }
        #expect(MemberTagSeries.read(members: members, tags: fewer, dates: dates) != nil)
        // A tagged member on a version of its own (redux-toolkit's codegen beside the toolkit's
        // `v2.x`) keeps its series.
        var own = members
        own[1].version = "1.4.0"
        let series = try #require(MemberTagSeries.read(members: own, tags: tags, dates: dates))
        #expect(series.format == "@tiptap/{member}@{version}")
    }

    /// nuxt: `@nuxt/ui-templates@1.3.3` of 2024 the only member tags, that package private since,
    /// then 300 `v4.x` of the whole line: its old series said nothing of the line (plan proposed
    /// `nuxt@4.5.2` with no current release).
    @Test func aPrivateMembersOldSeriesSaysNothingOfTheLine() throws {
        let ui = DiscoveredMember(
            folder: "packages/ui-templates", name: "ui-templates", packageName: "@nuxt/ui-templates", version: "1.3.3",
            unpublished: true)
        let members = [member("packages/nuxt", "nuxt", "4.5.2"), ui]
        var tags = ["@nuxt/ui-templates@1.3.1", "@nuxt/ui-templates@1.3.2", "@nuxt/ui-templates@1.3.3"]
        var dates = Dictionary(uniqueKeysWithValues: tags.enumerated().map { ($1, 100 + $0) })
        for patch in 0...9 {
            tags.append("v4.5.\(patch)")
            dates["v4.5.\(patch)"] = 200 + patch
        }
        #expect(MemberTagSeries.read(members: members, tags: tags, dates: dates) == nil)
        // Published still, at its own version: its series stands.
        var published = ui
        published.unpublished = false
        #expect(MemberTagSeries.read(members: [members[0], published], tags: tags, dates: dates) != nil)
    }
}
