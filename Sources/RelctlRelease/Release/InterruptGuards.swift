import RelctlBasics
import RelctlModel
import Synchronization

/// The `InterruptActions` one release registered to undo its tag if Ctrl-C arrives. Once the
/// release is sealed (its files are in dist/), or when it ends, they are all dropped together.
final class InterruptGuards: Sendable {
    private let ids = Mutex<[Int]>([])

    init() {}

    /// Registers an undo step; it runs only if relctl is interrupted before `releaseAll`.
    func add(_ action: @escaping @Sendable () -> Void) -> Int {
        let id = InterruptActions.shared.add(action)
        ids.withLock { $0.append(id) }
        return id
    }

    /// Drops one step whose risk has passed (the tag it guards failed to appear).
    func remove(_ id: Int) {
        InterruptActions.shared.remove(id)
        ids.withLock { $0.removeAll { $0 == id } }
    }

    /// Drops every step: the release is out, or over.
    func releaseAll() {
        for id in ids.withLock({ ids in
            defer { ids.removeAll() }; return ids
        }) { InterruptActions.shared.remove(id) }
    }
}
