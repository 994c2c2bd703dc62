/// Where the making of one singleton (or the first read of a lazy property) stands.
/// Read and written only while holding `Coordinator.lock`, after `SingletonSlot.settleLocked`:
/// a singleton claimed without the lock is `idle` here until someone holding the lock settles
/// it into `making` (`SlotOwner`).
enum CreationPhase {
    /// Nobody is making it (it may be made already: see the record's `published`).
    case idle
    /// `owner`'s frame at `depth` is running the closure.
    case making(owner: Resolution, depth: Int)
    /// The closure returned; `owner`'s frame at `depth` is injecting the object, which
    /// `owner`'s own lookup (and only it) may already use. `shareable`: the object is a class
    /// instance, so an early reference is the object itself, not a copy of an unfinished value.
    case injecting(owner: Resolution, depth: Int, shareable: Bool)
    /// Made and injected; published when `group`'s injections are all done.
    case deferred(group: PublicationGroup, shareable: Bool)

    var isIdle: Bool {
        if case .idle = self { return true }
        return false
    }

    /// The frames whose progress the end of this phase waits for.
    var blockers: [PublicationGroup.Injector] {
        switch self {
        case .idle: []
        case let .making(owner, depth), let .injecting(owner, depth, _): [.init(resolution: owner, depth: depth)]
        case let .deferred(group, _): group.root.injectors
        }
    }

    /// Whether ending this phase waits for work that has suspended: an async lookup making a
    /// synchronous definition suspends only when the object needs async work (an async
    /// definition, or a wait for another task); until then a synchronous caller may wait for it
    /// like for any synchronous making.
    var mayAwait: Bool {
        blockers.contains { $0.resolution.hasSuspendedWithin(from: $0.depth) }
    }
}
