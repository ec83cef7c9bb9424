import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject
@testable import RelctlRelease

/// A fault at every request index of a publish, per forge and kind of fault: a 5xx, or a
/// connection lost after the server acted (no retries, so the run stops there), after which the
/// next run finishes with exactly the local assets, published once and never visible incomplete;
/// and a 429 with Retry-After, waited out within the run. Not serialized: each case has its own
/// project and stand-in, and most of the time goes in process start-up and waits.
@Suite(.timeLimit(.minutes(60)), .removesTemporaries) struct ForgeFaultLoopCLITests {
    typealias Forge = ForgeStandIn.Forge
    let forges = ForgePublishCLITests()

    /// Stand-ins working through the request indexes at once (index % workers): the loop was the
    /// suite run's critical path (788 of 789 s in CI), mostly process start-up and waits.
    static let workers = 3

    @Test(arguments: [Forge.gitlab, .gitea], ["status", "drop", "retry_after"])
    func aFaultAtEveryRequestIndexIsFinished(forge: Forge, fault: String) async throws {
        let forges = self.forges
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<Self.workers {
                group.addTask {
                    try await Self.faultEveryIndex(forges, forge: forge, fault: fault, worker: worker)
                }
            }
            try await group.waitForAll()
        }
    }

    static func faultEveryIndex(
        _ forges: ForgePublishCLITests, forge: Forge, fault: String, worker: Int
    ) async throws {
        try await forges.withStandIn(forge, size: 20_000) { fixture, server in
            let arguments = ["v1.0.0", "--forge", forge.rawValue]
            let clean = try await forges.publish(arguments, fixture, server)
            #expect(clean.status == 0, "\(clean)")
            let requests = try await server.log().count
            #expect(requests >= 8, "\(requests) requests in a clean run")
            let once = server.environment().merging(["RELCTL_HTTP_RETRIES": "1"]) { $1 }
            for index in stride(from: worker, to: requests, by: workers) {
                let what = "\(fault) at request \(index) of \(requests)"
                try await server.reset()
                switch fault {
                case "status":
                    try await server.setFaults(#"[{"action":"status","status":502,"at":\#(index)}]"#)
                case "drop":
                    try await server.setFaults(#"[{"action":"drop","after":true,"at":\#(index)}]"#)
                default:
                    try await server.setFaults(#"[{"action":"retry_after","seconds":1,"at":\#(index)}]"#)
                    let limited = try await forges.publish(arguments, fixture, server)
                    #expect(limited.status == 0 && limited.stderr.contains("rate limited"), "\(what): \(limited)")
                    let log = try await server.log()
                    if let hit = log.firstIndex(where: { $0.status == 429 }) {
                        // Requests that arrived once the 429 was answered; one already in flight
                        // (a parallel upload) may be logged after it but arrived before it.
                        for request in log[(hit + 1)...] where request.time >= log[hit].end {
                            #expect(request.time >= log[hit].time + 1, "\(what): Retry-After honoured")
                        }
                    } else {
                        Issue.record("\(what): no 429 was served")
                    }
                    try await forges.expectExactlyPublished(server, fixture, what)
                    try forges.expectNeverVisibleIncomplete(log, fixture, what)
                    continue
                }
                let faulted = try await forges.publish(arguments, fixture, server, environment: once)
                #expect([0, 1].contains(faulted.status), "\(what): \(faulted)")
                try await server.setFaults("[]")
                let next = try await forges.publish(arguments, fixture, server)
                #expect(next.status == 0, "\(what): the next run failed: \(next)")
                try await forges.expectExactlyPublished(server, fixture, what)
                try forges.expectNeverVisibleIncomplete(try await server.log(), fixture, what)
            }
        }
    }
}
