import Foundation
import RelctlBasics
import RelctlModel

/// One step of a release. The contract is explicit: a stage names the facts it needs from earlier
/// stages and the facts it produces, says what it does on a dry run, and knows how to undo itself.
/// `ReleasePipeline` runs the stages in order and enforces the rest, so a new stage (images,
/// signatures, publishing) plugs in by being added to the list. A stage that says it
/// `runsAlongside` may overlap others (see `ReleasePipeline`): then `reads` must name every fact
/// of an earlier stage it looks at, in `ReleaseOutputs` or as files in the staging folder.
public protocol ReleaseStage: Sendable {
    /// Short name shown in progress and the plan (`build`, `package`, `tag`).
    var name: String { get }
    /// Facts an earlier stage must have produced; when one was not (its stage was skipped), this
    /// stage is skipped too.
    var needs: Set<ReleaseFact> { get }
    /// Facts this stage records in the outputs when it succeeds.
    var produces: Set<ReleaseFact> { get }
    /// Facts of earlier stages this stage reads when they were produced, beyond `needs` (it runs
    /// without them): the checksum stage lists the installers when there are any.
    var reads: Set<ReleaseFact> { get }
    /// True when the stage may run at the same time as other such stages: it runs no user command,
    /// changes nothing in git, writes only its own files into the staging folder, changes no file
    /// another stage wrote, and reads only `needs` and `reads`. It starts once every earlier stage
    /// producing one of those has ended; a stage that is not (hooks, build, tag, push, dist,
    /// publishing) runs alone, after everything before it has ended.
    var runsAlongside: Bool { get }
    /// What the stage does on a dry run.
    var dryRun: DryRunBehaviour { get }
    /// On a dry run whose preflight failed, stages that would create or publish the tag are
    /// skipped: their rehearsal would only repeat the preflight's problems.
    var needsPassingPreflight: Bool { get }
    /// After this stage succeeds the release is out: a later failure undoes nothing.
    var sealsRelease: Bool { get }

    /// True when this run's configuration has the stage run a user command after all (an
    /// `[archive] stage` command for the package stage): then it runs alone.
    func runsCommands(_ run: ReleaseRun) -> Bool
    /// Why the stage does not apply to this run (`--push` not given, no hooks…), or nil.
    func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String?
    /// Does the work and records what it produced; returns a one-line summary for the stage list.
    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String?
    /// Undoes this stage after a later stage failed; one line per thing undone or left.
    func undo(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async -> [String]
}

extension ReleaseStage {
    public var needs: Set<ReleaseFact> { [] }
    var produces: Set<ReleaseFact> { [] }
    public var reads: Set<ReleaseFact> { [] }
    public var runsAlongside: Bool { false }
    public func runsCommands(_ run: ReleaseRun) -> Bool { false }
    public var dryRun: DryRunBehaviour { .same }
    public var needsPassingPreflight: Bool { false }
    public var sealsRelease: Bool { false }
    public func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? { nil }
    public func undo(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async -> [String] { [] }
}
