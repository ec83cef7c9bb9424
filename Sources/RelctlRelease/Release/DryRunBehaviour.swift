import RelctlBasics
import RelctlModel

/// What a stage does on `relctl release --dry-run`, declared by the stage so the dry run's
/// promise ("everything for real, somewhere else") can be read off the stage list.
public enum DryRunBehaviour: Sendable, Equatable {
    /// The same work, for real, in the scratch clone (build, package, checksum, notes).
    case same
    /// A harmless stand-in that proves the real step would work (the push is `git push --dry-run`).
    case rehearsal
    /// Nothing: the step would reach outside the scratch clone (after hooks).
    case skipped
}
