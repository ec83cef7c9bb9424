import RelctlTestSupport
import Testing

/// Every `TemporaryDirectory` a test makes (its fixtures, remotes, scratch folders) is removed
/// when the test ends, passed, failed or thrown: the scope Swift Testing gives a trait replaces a
/// hand-written `defer { fixture.remove() }` in every test. Applied to a suite, it covers each of
/// its tests (and each case of a parameterized one) separately.
public struct RemovesTemporaries: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // A suite's own scope holds no temporaries; each test case gets its own.
        guard testCase != nil else { return try await function() }
        // Every test has a time limit (its suite's `.timeLimit`): a child that hangs fails its
        // test there instead of holding the run. SuiteRulesTests checks the sources too.
        if test.timeLimit == nil {
            Issue.record(
                "\(test.name) has no time limit: give its suite a `.timeLimit(.minutes(N))` (docs/development.md)")
        }
        // On the test threads, not the cooperative pool: a test blocked on a child holds one of
        // many threads, not one of the pool's one per core (`TestThreads`).
        guard let threads = TestThreads.shared else { return try await TemporaryScope.run(function) }
        try await withTaskExecutorPreference(threads) { try await TemporaryScope.run(function) }
    }
}

extension Trait where Self == RemovesTemporaries {
    /// Removes the test's temporary directories when it ends.
    public static var removesTemporaries: Self { RemovesTemporaries() }
}
