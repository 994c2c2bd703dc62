/// Where the making of one singleton (or the first read of a lazy property) stands.
/// Read and written only while holding `Coordinator.lock`, after `SingletonSlot.settleLocked`:
/// a singleton claimed without the lock is `idle` here until someone holding the lock settles
/// it into `making` or `injecting` (`SlotOwner` says which word goes with which phase).
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

    /// Whether ending this phase waits for work that has suspended, directly or through the
    /// makings its owners wait for (a thread making `s1` waits for `s2`, whose async maker has
    /// suspended): an async lookup making a synchronous definition suspends only when the object
    /// needs async work (an async definition, or a wait for another task); until then a
    /// synchronous caller may wait for it like for any synchronous making.
    var mayAwait: Bool {
        Coordinator.firstFrame(reachedFrom: self) { $0.resolution.hasSuspendedWithin(from: $0.depth) } != nil
    }

    /// Whether a lookup on the main actor waiting for the end of this phase would hold the main
    /// actor from a lookup the phase waits for, directly or through other makings, which waits
    /// to hop there.
    var waitsForTheMainActor: Bool {
        Coordinator.firstFrame(reachedFrom: self) { $0.resolution.awaitsMainActor } != nil && Resolution.holdsMainActor
    }

    /// Whether a caller may wait for the end of this phase, by the rules of every wait of the
    /// engine (a claim, a group's settlement): an awaited lookup may; a synchronous caller never
    /// waits for async work — not for work that may suspend, in a task or on any other thread
    /// (a serial queue blocked for work that resumes on it would never be released) — nor, on
    /// the main actor, for a lookup waiting to hop there. Called with the lock held.
    func mayBeWaitedFor(synchronously: Bool) -> Bool {
        guard synchronously else { return true }
        return !mayAwait && !waitsForTheMainActor
    }
}
