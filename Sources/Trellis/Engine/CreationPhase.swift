/// Where the making of one singleton (or the first read of a lazy property) stands.
/// Read and written only while holding `Coordinator.lock`.
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

/// What a resolution is blocked on: a definition of a context, or the first read of a lazy
/// property. The slot the claim loops (`acquireBlocking`, `acquireSuspending`) wait on.
enum WaitTarget: @unchecked Sendable {
    // Safe: the context is held by whoever waits (unretained here), and every member used through
    // a target (phase, waiters) is read and written only with `Coordinator.lock` held.
    case definition(Unmanaged<ApplicationContext>, Int)
    case lazyProperty(LazyInjectionSlot)

    /// The target's phase. Called with `Coordinator.lock` held.
    var phase: CreationPhase {
        switch self {
        case let .definition(context, index): context.withGuaranteedReference { $0.states[index].phase }
        case let .lazyProperty(slot): slot.phase
        }
    }

    var key: String {
        switch self {
        case let .definition(context, index): context.withGuaranteedReference { $0.table.keys[index] }
        case let .lazyProperty(slot): slot.name
        }
    }

    /// Adds a task waiting for the slot. Called with `Coordinator.lock` held.
    func add(_ waiter: AsyncWaiter) {
        switch self {
        case let .definition(context, index): context.withGuaranteedReference { $0.states[index].asyncWaiters.append(waiter) }
        case let .lazyProperty(slot): slot.asyncWaiters.append(waiter)
        }
    }

    /// Removes a waiting task, if it is still there. Called with `Coordinator.lock` held.
    func remove(_ waiter: AsyncWaiter) {
        switch self {
        case let .definition(context, index):
            context.withGuaranteedReference { context in
                if let position = context.states[index].asyncWaiters.firstIndex(where: { $0 === waiter }) {
                    context.states[index].asyncWaiters.remove(at: position)
                }
            }
        case let .lazyProperty(slot):
            if let position = slot.asyncWaiters.firstIndex(where: { $0 === waiter }) { slot.asyncWaiters.remove(at: position) }
        }
    }
}
