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
        // A test marked `.startsAtOnce` gets a thread of its own at once instead of a place in
        // the shared threads' queue behind the suite's other tests.
        let threads = test.traits.contains { $0 is StartsAtOnce } ? TestThreads.dedicated() : TestThreads.shared
        guard let threads else { return try await TemporaryScope.run(function) }
        try await withTaskExecutorPreference(threads) {
            // Entering the preference moves the task only when it next suspends, and a
            // synchronous test body never does: the yield is that suspension, so the body starts
            // on the test threads whatever runs between here and it.
            await Task.yield()
            try await TemporaryScope.run(function)
        }
    }
}

/// Marks the test whose own work is the suite's longest (relctl's release build in
/// `OwnWorkflowRunCLITests`): it starts when the run starts, on a thread of its own, so the rest
/// of the suite runs beside it instead of before it (`RemovesTemporaries`; docs/development.md,
/// "Where the suite's time goes"). The suite must carry `.removesTemporaries`, as every suite does.
public struct StartsAtOnce: TestTrait {}

extension Trait where Self == StartsAtOnce {
    /// Runs the test at the start of the run, on its own thread.
    public static var startsAtOnce: Self { StartsAtOnce() }
}

extension Trait where Self == RemovesTemporaries {
    /// Removes the test's temporary directories when it ends.
    public static var removesTemporaries: Self { RemovesTemporaries() }
}
