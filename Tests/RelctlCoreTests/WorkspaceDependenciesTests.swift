import Foundation
import RelctlModel
import RelctlProject
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject

/// The release order of a workspace's members and the range rules behind its dependents (issue 42).
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct WorkspaceDependenciesTests {
    static func edge(
        _ dependent: String, on dependency: String, _ kind: WorkspaceDependency.Kind = .normal
    )
        -> WorkspaceDependency
    {
        WorkspaceDependency(
            dependent: dependent, dependency: dependency, ecosystem: .cargo, kind: kind, requirementFile: nil,
            package: dependency)
    }

    /// Dependencies first, otherwise the order given; a dev-dependency orders nothing.
    @Test func releaseOrderPutsDependenciesFirst() throws {
        let edges = [
            Self.edge("app", on: "cli"), Self.edge("cli", on: "core"), Self.edge("core", on: "app", .dev),
            Self.edge("tool", on: "core"),
        ]
        let order = try WorkspaceDependencies.order(
            ["app", "cli", "core", "tool", "zeta"], along: edges, config: "relctl.toml")
        #expect(order == ["core", "cli", "app", "tool", "zeta"])
        // Each member after everything it depends on, whatever order the members come in.
        for names in [["tool", "zeta", "app", "core", "cli"], ["zeta", "cli", "tool", "app", "core"]] {
            let shuffled = try WorkspaceDependencies.order(names, along: edges, config: "relctl.toml")
            for edge in edges where edge.counts {
                let (a, b) = (shuffled.firstIndex(of: edge.dependency)!, shuffled.firstIndex(of: edge.dependent)!)
                #expect(a < b, "\(edge.dependency) before \(edge.dependent): \(shuffled)")
            }
        }
    }

    /// A cycle is exit 2 naming its members, and only them.
    @Test func aCycleIsBadInputNamingItsMembers() throws {
        let edges = [
            Self.edge("a", on: "b"), Self.edge("b", on: "c"), Self.edge("c", on: "b"), Self.edge("d", on: "a"),
        ]
        do {
            _ = try WorkspaceDependencies.order(["a", "b", "c", "d", "e"], along: edges, config: "ws/relctl.toml")
            Issue.record("a cycle was ordered")
        } catch let error as WorkspaceDependencyError {
            #expect(error.exitCode == .badInput)
            #expect(error.message.contains("ws/relctl.toml"), "\(error.message)")
            #expect(error.message.contains("`b` → `c` → `b`") && !error.message.contains("`d`"), "\(error.message)")
        }
    }

    @Test(arguments: [
        ("^1.0.0", "1.9.3", true), ("^1.0.0", "2.0.0", false), ("^0.2.3", "0.2.9", true), ("^0.2.3", "0.3.0", false),
        ("^0.0.3", "0.0.4", false), ("~1.2", "1.2.9", true), ("~1.2", "1.3.0", false), ("1.x", "1.4.0", true),
        ("1", "2.0.0", false), ("*", "7.0.0", true), ("", "0.1.0", true), (">=1.2.0 <2", "1.9.0", true),
        (">=1.2.0 <2", "2.0.0", false), ("^1.0.0 || ^2.0.0", "2.1.0", true), ("1.2.3", "1.2.4", false),
        ("=1.2.3", "1.2.3", true), (">1.2", "1.2.9", false), (">1.2", "1.3.0", true), ("<=1.2", "1.2.7", true),
    ])
    func npmRanges(_ range: String, _ version: String, _ admitted: Bool) throws {
        #expect(NpmRange.satisfies(range, try SemanticVersion(parsing: version)) == admitted, "\(range) vs \(version)")
    }

    @Test func unreadableNpmRangesAreNoMatch() throws {
        for range in ["1.0.0 - 2.0.0", "latest", "github:a/b", "^1.a"] {
            #expect(NpmRange.satisfies(range, try SemanticVersion(parsing: "1.5.0")) == nil, "\(range)")
        }
        #expect(NpmRange.simple("^1.2")?.operator == "^" && NpmRange.simple("^1.2")?.version == "1.2")
        #expect(NpmRange.simple(">=1.2.0 <2") == nil && NpmRange.simple("1.x") == nil)
    }

    /// A requirement rises to the release, never below what it names.
    @Test(
        arguments: [
            ("1.0", "1.3.0", "1.3.0"), ("1.2", "1.2.0", nil), ("0.3", "0.3.1", "0.3.1"), ("2.0.0", "1.9.0", nil),
            ("1.0.0-rc.1", "1.0.0", "1.0.0"), ("1.0.0", "1.0.0-rc.2", nil),
        ] as [(String, String, String?)])
    func requirementsRiseToTheRelease(_ text: String, _ version: String, _ expected: String?) throws {
        #expect(DependentRequirements.raised(text, to: try SemanticVersion(parsing: version)) == expected)
    }

    @Test func swiftPathPackagesAreRead() {
        let text = """
            dependencies: [
                .package(path: "../Kit"),
                .package(name: "Core", path: "../../core"),
                .package(url: "https://example.com/x.git", from: "1.0.0"),
            ]
            """
        #expect(WorkspaceDependencies.swiftPathPackages(text) == ["../Kit", "../../core"])
    }
}
