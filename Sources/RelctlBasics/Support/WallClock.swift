import Foundation

/// The clock is used only for durations and progress, never for anything written into an
/// artifact (those use `SOURCE_DATE_EPOCH` or commit times).
public protocol WallClock: Sendable {
    func now() -> Date
}

extension WallClock {
    /// Seconds elapsed since `start`, for reports.
    package func seconds(since start: Date) -> Double { now().timeIntervalSince(start) }
}

/// The real clock.
public struct SystemClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}
