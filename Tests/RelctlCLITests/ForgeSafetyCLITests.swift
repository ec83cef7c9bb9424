import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject

/// Issue 39 ("Safe by construction"), the forge findings: what a server answers is never taken
/// for more than it is (a link's name for its target, a page for the end of a list), and never
/// prints a token or starts a line of its own in a CI log.
extension ForgePublishCLITests {
    /// Finding 5: a release link with an asset's name but another URL is not "already published".
    @Test func gitLabRefusesALinkOfTheRightNameThatLeadsElsewhere() async throws {
        try await withStandIn(.gitlab) { fixture, server in
            let name = ChecksumFixtures.linux
            let elsewhere = "https://downloads.example.net/\(name)"
            try await server.seed(
                #"{"tag_name":"v1.0.0","links":[{"name":"\#(name)","url":"\#(elsewhere)","link_type":"package"}]}"#)
            let refused = try await publish(["v1.0.0", "--forge", "gitlab"], fixture, server)
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.stderr.contains("the release link `\(name)` leads to \(elsewhere)"), "\(refused)")
            #expect(refused.stderr.contains("/packages/generic/velostream/1.0.0/\(name)"), "\(refused)")
            #expect(refused.stderr.contains("delete or correct that link"), "\(refused)")
            #expect(!refused.stderr.contains("already published"), "\(refused)")
            // Nothing was linked beside it: the release is not completed around a foreign link.
            #expect(try await server.log().allSatisfy { $0.kind != "link" })
        }
    }

    /// Finding 11: a listing that names a next page for ever stops at 1,000 pages with an error.
    @Test(arguments: [Forge.gitlab, .gitea])
    func anEndlessListingStopsAtThePageLimit(forge: Forge) async throws {
        try await withStandIn(forge) { fixture, server in
            let kind = forge == .gitlab ? "packages" : "list"
            try await server.setFaults(#"[{"action":"endless","kind":"\#(kind)","times":100000}]"#)
            let result = try await publish(["v1.0.0", "--forge", forge.rawValue], fixture, server)
            #expect(result.status == 1, "\(result)")
            let listing =
                forge == .gitlab ? "GitLab: the listing GET packages" : "Gitea/Forgejo: the listing GET releases"
            #expect(
                result.stderr.contains("\(listing) still names a next page after 1000 pages, the most relctl follows"),
                "\(result)")
            let pages = try await server.log().filter { $0.kind == kind }.count
            #expect(pages == 1000, "pages requested: \(pages)")
            #expect(try await server.log().allSatisfy { $0.method == "GET" }, "nothing was changed")
        }
    }

    /// Finding 11: pages of 2 MiB that never end stop at the listing's 64 MiB budget: about 32
    /// pages are read, never the 1,000 (2 GB) the page bound alone would allow.
    @Test(arguments: [Forge.gitlab, .gitea])
    func anEndlessListingStopsAtTheByteBudget(forge: Forge) async throws {
        try await withStandIn(forge) { fixture, server in
            let kind = forge == .gitlab ? "packages" : "list"
            try await server.setFaults(
                #"[{"action":"endless","kind":"\#(kind)","times":100000,"items":8,"pad":262144}]"#)
            let result = try await publish(["v1.0.0", "--forge", forge.rawValue], fixture, server)
            #expect(result.status == 1, "\(result)")
            #expect(
                result.stderr.contains("passed 64.0 MiB over its pages, the most relctl reads for one listing"),
                "\(result)")
            let pages = try await server.log().filter { $0.kind == kind }.count
            // 8 × 256 KiB and JSON around it per page: 32 fit the budget, the next one passes it.
            #expect(pages <= 33, "pages requested: \(pages)")
        }
    }

    /// Finding 13: a token echoed in an unexpected 2xx, in an undecodable 2xx quoted as "unexpected
    /// answer", or spelled with JSON `\u` escapes in an error body, never prints.
    @Test(arguments: [Forge.gitlab, .gitea])
    func aTokenEchoedOnAnyStatusOrInEscapesNeverPrints(forge: Forge) async throws {
        try await withStandIn(forge) { fixture, server in
            let token = forge == .gitlab ? ForgeStandIn.gitlabToken : ForgeStandIn.giteaToken
            let faults = [
                // A 2xx the call does not expect: its body becomes the error message.
                #"{"action":"reflect","status":203,"at":0}"#,
                // A 200 that does not decode, every other character escaped: quoted raw.
                #"{"action":"reflect","status":200,"at":0,"escape":"mixed"}"#,
                // An error body fully escaped: its message is decoded, then printed.
                #"{"action":"reflect","status":422,"at":0,"escape":"unicode"}"#,
            ]
            for fault in faults {
                try await server.reset()
                try await server.setFaults("[\(fault)]")
                let result = try await publish(["v1.0.0", "--forge", forge.rawValue, "--json"], fixture, server)
                #expect(result.status == 1, "\(fault): \(result)")
                #expect(try await server.log().first?.fault == "reflect", "\(fault)")
                let printed = Self.jsonUnescaped(result.stderr + result.stdout)
                #expect(!printed.contains(token), "\(fault): \(result)")
                #expect(printed.contains("***"), "\(fault): \(result)")
            }
        }
    }

    /// Finding 15: an attachment name with a line break is printed on one line, so it cannot start
    /// a workflow command (`::error::…`) in a CI log.
    @Test func giteaAttachmentNamesNeverStartALineOfTheirOwn() async throws {
        try await withStandIn(.gitea) { fixture, server in
            let data = Data("left over".utf8).base64EncodedString()
            try await server.seed(
                #"{"tag_name":"v1.0.0","draft":true,"assets":[{"name":"notes.txt\n::error::pwned","data":"\#(data)"}]}"#
            )
            let result = try await publish(["v1.0.0", "--forge", "gitea"], fixture, server)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.contains(#"attachment `notes.txt\n::error::pwned` is not in this dist/ folder"#))
            let lines = (result.stderr + "\n" + result.stdout).split(whereSeparator: \.isNewline)
            #expect(
                !lines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("::") },
                "\(result)")
        }
    }

    /// `\uXXXX` escapes (surrogate pairs joined) decoded, as a reader of the output could.
    static func jsonUnescaped(_ text: String) -> String {
        var units: [UInt16] = []
        var scalars = Array(text.unicodeScalars)[...]
        var out = ""
        func flush() {
            out += String(decoding: units, as: UTF16.self)
            units = []
        }
        while let first = scalars.first {
            if first == "\\", scalars.count >= 6, scalars.dropFirst().first == "u",
                let unit = UInt16(String(String.UnicodeScalarView(scalars.dropFirst(2).prefix(4))), radix: 16)
            {
                units.append(unit)
                scalars = scalars.dropFirst(6)
                continue
            }
            flush()
            out.unicodeScalars.append(first)
            scalars = scalars.dropFirst()
        }
        flush()
        return out
    }
}
