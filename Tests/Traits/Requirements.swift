import Foundation
import RelctlTestSupport
import Testing

/// How the suite treats a test that cannot run here. A missing tool is always a failure (`run`
/// and `Tool` throw); what is left are things about the machine itself (root, mounting a tmpfs,
/// installing system packages), which a developer's machine may lack. Such a test names what it
/// needs with `.requires(...)` (or `MachineRequirement.require()` in its body), the one way a
/// test of this suite may not run: elsewhere it is cancelled with the reason printed, and under
/// `CI=true` it is a failure, so in CI every test runs. `make test` fails too when a CI run
/// reports any skipped or cancelled test (Tests/skipped-tests.py reads the run's events), and
/// SuiteRulesTests refuses Swift Testing's own `.enabled(if:)`, `.disabled()` and
/// `withKnownIssue` anywhere else under Tests/. docs/development.md states the rule.
public enum TestPolicy {
    /// `CI=true` (GitHub, GitLab and .ci/run set it): a test that does not run is a failure.
    public static var isCI: Bool {
        let value = ProcessInfo.processInfo.environment["CI"]?.lowercased()
        return value == "true" || value == "1"
    }

    /// `RELCTL_TEST_UNMET=root,tmpfs`: requirements to treat as unmet on this run, so the tests of
    /// the harness (TestHarnessTests) can show what an unmet one does with and without CI.
    static var pretendUnmet: Set<String> {
        Set((ProcessInfo.processInfo.environment["RELCTL_TEST_UNMET"] ?? "").split(separator: ",").map(String.init))
    }
}

/// Something a test needs from the machine that no package installs.
public struct MachineRequirement: Sendable, CustomStringConvertible {
    /// A short name (`RELCTL_TEST_UNMET` uses it).
    public let name: String
    /// What it is, for the failure or cancellation message.
    public let description: String
    let probe: @Sendable () -> Bool

    public init(name: String, description: String, probe: @escaping @Sendable () -> Bool) {
        self.name = name
        self.description = description
        self.probe = probe
    }

    public var isMet: Bool { !TestPolicy.pretendUnmet.contains(name) && probe() }

    /// Running as root (chown to another user, chroot, mount).
    public static let root = MachineRequirement(name: "root", description: "root (uid 0)") { getuid() == 0 }

    /// Mounting a small tmpfs: root, in a machine (or container) that allows mounts.
    public static let tmpfsMount = MachineRequirement(
        name: "tmpfs", description: "mounting a tmpfs (root, and a machine that allows mounts)"
    ) { Probes.tmpfsMount }

    /// `sudo apt-get install` as GitHub's runners do: apt-get, and root or a sudo without password.
    public static let packageInstall = MachineRequirement(
        name: "apt-install", description: "installing Debian packages (apt-get, and root or sudo without a password)"
    ) { Probes.packageInstall }

    /// Goes on when every requirement holds. Otherwise: under `CI=true` throws (the test fails,
    /// naming what the machine lacks); elsewhere cancels the test with the reason, which the run
    /// reports (never a silent pass).
    public static func check(_ requirements: [MachineRequirement]) throws {
        let unmet = requirements.filter { !$0.isMet }
        guard !unmet.isEmpty else { return }
        let what = unmet.map(\.description).joined(separator: " and ")
        if TestPolicy.isCI {
            throw TestFailure(
                "this test needs \(what), which this machine lacks; under CI=true every test must run"
                    + " (docs/development.md)")
        }
        try Test.cancel("needs \(what): not run on this machine (a failure under CI=true)")
    }

    /// `check` for one requirement, from a test's body (a part of a test that needs it).
    public func require() throws { try Self.check([self]) }
}

/// The probes, each run once per test process.
enum Probes {
    static let tmpfsMount: Bool = {
        guard getuid() == 0, let probe = try? TemporaryDirectory(prefix: "relctl-tmpfs-probe") else { return false }
        defer { probe.remove() }
        let point = probe.url.appendingPathComponent("m")
        guard (try? FileManager.default.createDirectory(at: point, withIntermediateDirectories: true)) != nil,
            (try? run("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", point.path]))?.status == 0
        else { return false }
        _ = try? run("umount", [point.path])
        return true
    }()

    static let packageInstall: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/apt-get") else { return false }
        if getuid() == 0 { return true }
        guard Tool.find("sudo") != nil else { return false }
        return (try? run("sudo", ["-n", "true"]))?.status == 0
    }()
}

/// The trait form: `@Test(.requires(.root))`.
public struct Requires: TestTrait, SuiteTrait, TestScoping {
    let requirements: [MachineRequirement]

    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }
        try MachineRequirement.check(requirements)
        try await function()
    }
}

extension Trait where Self == Requires {
    /// Runs the test only where the machine has what it needs; a failure under `CI=true`.
    public static func requires(_ requirements: MachineRequirement...) -> Self {
        Requires(requirements: requirements)
    }
}
