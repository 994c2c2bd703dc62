/// One singleton definition of one context: the creation state machine of its object.
///
/// The slot decides each step under `Coordinator.lock`: `claim` (made, claimed, wait, or fail),
/// then, as the making ends, `publishedOrInjecting`, `finishCreating`, `abandon` or
/// `failInjecting` (SingletonSlot+Publication.swift); its drivers (`made`, `madeAsync`,
/// SingletonSlot+Making.swift) take the steps in order and run the closure and the injection
/// between them, without the lock. A lazy property's first read has the same steps in
/// `LazyInjectionSlot`; both are waited on through `WaitTarget`.
///
/// Two words, copied freely: the context is held by whoever holds the slot (the lookup making
/// or waiting for it), so the slot does not retain it.
struct SingletonSlot: Sendable {
    let unretainedContext: Unretained<ApplicationContext>
    let index: Int

    @inline(__always)
    init(_ context: ApplicationContext, _ index: Int) {
        unretainedContext = Unretained(context)
        self.index = index
    }

    @inline(__always)
    var records: HeapBuffer<DefinitionRecord> { unretainedContext.with { $0.records } }

    @inline(__always)
    var states: HeapBuffer<CreationState> { unretainedContext.with { $0.states } }

    @inline(__always)
    var isClosed: Bool { unretainedContext.with { $0.isClosed } }

    var key: String { unretainedContext.with { $0.table.keys[index] } }

    /// The context, retained for the caller: for what outlives the slot's holder's call (a
    /// group's pending list) and for errors.
    var context: ApplicationContext { unretainedContext.object }

    /// The error of a synchronous lookup of the singleton that would have to wait for async
    /// work. Retains nothing: it is made under the lock.
    private func requiresAwait(_ resolution: Resolution) -> ContextError {
        unretainedContext.with { $0.requiresAwait(index, resolution) }
    }

    // MARK: Claiming

    /// What a lookup in `resolution` does about the singleton now: the first step of the
    /// creation state machine. Called with the lock held.
    func claim(_ resolution: Resolution, waitsSynchronously: Bool) -> SlotClaim<MadeValue> {
        if records[index].published.load(ordering: .relaxed) != nil { return .made(states[index].made!) }
        if records[index].scope == .weak, let made = liveWeakSingleton() { return .made(made) }
        if isClosed { return .failed(unretainedContext.with { $0.closedError(looking: key) }) }
        let phase = states[index].phase
        switch phase {
        case .idle:
            if waitsSynchronously && records[index].isAsync { return .failed(requiresAwait(resolution)) }
            states[index].phase = .making(owner: resolution, depth: resolution.depth + 1)
            return .claimed
        case let .deferred(group, _) where group.root === resolution.group.root:
            // Finished, waiting to be published with this lookup's own group.
            group.root.lastEarlyReference = Coordinator.nextSequence()
            return .made(states[index].made!)
        case .making, .injecting, .deferred:
            if let waited = Coordinator.cycle(through: phase, to: resolution) {
                let cyclePath = resolution.cyclePrefix(closedBy: phase.blockers.first?.resolution) + [key] + waited
                let ownerGroup: PublicationGroup
                let shareable: Bool
                switch phase {
                case let .injecting(owner, _, isShareable):
                    ownerGroup = owner.group.root
                    shareable = isShareable
                case let .deferred(group, isShareable):
                    ownerGroup = group.root
                    shareable = isShareable
                default:
                    return .failed(.circularDependency(path: cyclePath))
                }
                // A property cycle: the object exists, its properties are being injected.
                guard shareable else { return .failed(.circularDependency(path: cyclePath)) }
                ownerGroup.absorb(resolution.group.root)
                ownerGroup.lastEarlyReference = Coordinator.nextSequence()
                return .made(states[index].made!)
            }
            if waitsSynchronously {
                // A synchronous caller never waits for async work: not for an async definition,
                // and, from inside a task, not for one whose making may suspend.
                if records[index].isAsync || (phase.mayAwait && Resolution.isInTask) { return .failed(requiresAwait(resolution)) }
                if phase.blockers.contains(where: { $0.resolution.awaitsMainActor }), MainActorCall.isOnMainActor {
                    return .failed(requiresAwait(resolution))
                }
            }
            return .wait
        }
    }

    /// The keys of the waits that would close a cycle if `resolution` waited for the singleton,
    /// which something is making; `nil` if nothing is, or no cycle.
    func cycle(to resolution: Resolution) -> [String]? {
        Coordinator.lock.withLock {
            let phase = states[index].phase
            return phase.isIdle ? nil : Coordinator.cycle(through: phase, to: resolution)
        }
    }

    // MARK: Waiters

    /// The slot's phase. Called with the lock held.
    var phase: CreationPhase { states[index].phase }

    /// Adds a task waiting for the singleton. Called with the lock held.
    func add(_ waiter: AsyncWaiter) { states[index].asyncWaiters.append(waiter) }

    /// Removes a waiting task, if it is still there. Called with the lock held.
    func remove(_ waiter: AsyncWaiter) {
        if let position = states[index].asyncWaiters.firstIndex(where: { $0 === waiter }) {
            states[index].asyncWaiters.remove(at: position)
        }
    }

    /// The suspended tasks waiting for the singleton, to resume after the lock. Called with the
    /// lock held.
    func wakeWaiters() -> [Resumption<Void>] {
        guard !states[index].asyncWaiters.isEmpty else { return [] }
        let waiters = states[index].asyncWaiters
        states[index].asyncWaiters = []
        return waiters.compactMap { $0.wake() }
    }

    // MARK: Weak singletons

    /// The weak singleton's object, strongly held, while it is alive, else `nil`. Called with
    /// the lock held: the value holds a strong reference, released by the caller after the lock.
    @inline(never)
    func liveWeakSingleton() -> MadeValue? {
        guard let object = states[index].weakObject?.object else { return nil }
        func made<Object>(_: Object.Type, _ object: AnyObject, isClassType: Bool) -> MadeValue {
            // The definition declares a class type (`createWeakSingleton`'s `AnyObject` bound).
            MadeValue.holding(object as! Object, isClassType: isClassType)
        }
        return made(records[index].objectType, object, isClassType: records[index].isClassType)
    }

    /// Whether the weak singleton is alive now.
    func isAlive() -> Bool {
        // The strong reference is released after the lock: it may be the last one.
        let object = Coordinator.lock.withLock { states[index].weakObject?.object }
        return object != nil
    }
}
