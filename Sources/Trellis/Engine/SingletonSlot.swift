/// One singleton definition of one context: the creation state machine of its object.
///
/// A lookup that finds the singleton unmade and unclaimed claims it without the lock
/// (`claimWithoutLock`), and publishes it without the lock if nobody asked for it meanwhile
/// (`SlotOwner`). Otherwise the slot decides each step under `Coordinator.lock`, after
/// `settleLocked`: `claim` (made, claimed, wait, or fail), then, as the making ends,
/// `publishedOrInjecting`, `finishCreating`, `abandon` or `failInjecting`
/// (SingletonSlot+Publication.swift). Its drivers (`made`, `madeAsync`,
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

    var key: String { unretainedContext.with { $0.key(at: index) } }

    /// The context, retained for the caller: for what outlives the slot's holder's call (a
    /// group's pending list) and for errors.
    var context: ApplicationContext { unretainedContext.object }

    /// The error of a synchronous lookup of the singleton that would have to wait for async
    /// work. Retains nothing: it is made under the lock.
    func requiresAwait(_ resolution: Resolution) -> ContextError {
        unretainedContext.with { $0.requiresAwait(index, resolution) }
    }

    // MARK: Claiming

    /// What a lookup in `resolution` does about the singleton now: the first step of the
    /// creation state machine. Called with the lock held.
    ///
    /// A singleton made and waiting to be published with this lookup's own group (made by this
    /// lookup, which waits for its publication, `SingletonSlot.waitsForItsGroup`, or by another
    /// that shares or merged the group) is waited for like any other: the lookup takes it
    /// before then only where waiting would close a cycle (the group waits for this lookup's
    /// own injection, or a lookup it is nested in), and where it must not block for the group (a
    /// synchronous caller, the group waiting for work that has suspended) it gets
    /// `requiresAwait`, as for any other wait it must not make: never an object the group's
    /// injections have not finished, or a failure of the group may then drop.
    func claim(_ resolution: Resolution, waitsSynchronously: Bool) -> SlotClaim<MadeValue> {
        settleLocked()
        if records[index].published.load(ordering: .acquiring) != nil { return .made(states[index].made!) }
        if records[index].scope == .weak, let made = liveWeakSingleton() { return .made(made) }
        if isClosed { return .failed(unretainedContext.with { $0.closedError(looking: key) }) }
        let phase = states[index].phase
        if case let .deferred(group, _) = phase, group.root === resolution.group.root {
            guard Coordinator.cycle(through: phase, to: resolution) != nil else {
                return mayWait(for: phase, waitsSynchronously) ? .wait : refusedWait(resolution)
            }
            // Held by the lookups it runs for: dropped with the group, what they make is made
            // again (`failInjecting`).
            Coordinator.stampEarlyReference(group.root, takenBy: resolution, of: states[index].made!.owner)
            return .made(states[index].made!)
        }
        switch phase {
        case .idle:
            if waitsSynchronously && records[index].isAsync { return .failed(requiresAwait(resolution)) }
            // A lookup may have claimed it without the lock since `settleLocked`: then it is
            // that lookup's, and this one looks again.
            guard records[index].owner.compareExchange(expected: SlotOwner.free, desired: SlotOwner.locked, ordering: .acquiringAndReleasing).exchanged else {
                return claim(resolution, waitsSynchronously: waitsSynchronously)
            }
            states[index].phase = .making(owner: resolution, depth: resolution.depth + 1)
            return .claimed
        case .making, .injecting, .deferred:
            if let waited = Coordinator.cycle(through: phase, to: resolution) ?? waitForMainActorHop(phase, resolution, waitsSynchronously) {
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
                    return waitForAnEarlyReference(phase, resolution, waitsSynchronously) ?? .failed(.circularDependency(path: cyclePath))
                }
                // A property cycle: the object exists, its properties are being injected.
                guard shareable else { return waitForAnEarlyReference(phase, resolution, waitsSynchronously) ?? .failed(.circularDependency(path: cyclePath)) }
                ownerGroup.absorb(resolution.group.root)
                Coordinator.stampEarlyReference(ownerGroup, takenBy: resolution, of: states[index].made!.owner)
                return .made(states[index].made!)
            }
            return mayWait(for: phase, waitsSynchronously) ? .wait : refusedWait(resolution)
        }
    }

    /// A synchronous lookup on the main actor meeting a singleton whose injector waits to hop
    /// onto the main actor to make a main-actor singleton this lookup is making: waiting would
    /// hold the main actor from the very lookup that must run there, a cycle through the hop that
    /// the wait-for graph does not record. For a singleton being injected this is a property
    /// cycle (the main-actor singleton's property and this one's), answered as one: the object
    /// early (`[]`: no key waited on in between). `nil` otherwise, where `mayWait` refuses the
    /// wait instead (a lookup on the main actor that merely needs the singleton gets
    /// `requiresAwait`, never an object still being injected). Called with the lock held.
    private func waitForMainActorHop(_ phase: CreationPhase, _ resolution: Resolution, _ waitsSynchronously: Bool) -> [String]? {
        guard waitsSynchronously, case .injecting(_, _, true) = phase, phase.waitsForTheMainActor else { return nil }
        let closesACycle = phase.blockers.contains { blocker in
            guard let hop = blocker.resolution.mainActorHop else { return false }
            return hop.context.with { resolution.isMaking(hop.index, of: $0) }
        }
        return closesACycle ? [] : nil
    }

    /// A cycle of waits that runs through a lookup waiting for an object that exists (a
    /// singleton being injected or waiting for its group, or its own group's injections: it
    /// waited because no cycle forced it to take the object early then) is broken by that
    /// lookup, not reported: it takes the object early once it looks again and finds this one
    /// waiting too, so this one waits (`.wait`), and the other is woken to look; where this one
    /// must not wait (a blocking lookup, the making having suspended), `requiresAwait`, as for
    /// any such wait. `nil` where every wait on the cycle is for a closure still running (a
    /// cycle through closures): `circularDependency`. Called with the lock held.
    private func waitForAnEarlyReference(_ phase: CreationPhase, _ resolution: Resolution, _ waitsSynchronously: Bool) -> SlotClaim<MadeValue>? {
        guard let waiter = Coordinator.waiterThatMayTakeEarly(onCycleThrough: phase, to: resolution) else { return nil }
        guard mayWait(for: phase, waitsSynchronously) else { return refusedWait(resolution) }
        // A blocked thread is woken by the broadcast of this lookup's first wait; a task is
        // resumed here.
        waiter.waitingFor?.resumeWaitingTasks()
        Coordinator.lock.broadcast()
        return .wait
    }

    /// The answer to a wait `mayWait` refused: `requiresAwait`. A synchronous step of an async
    /// lookup (a synchronous closure's lookup, a synchronous injection, a making on the main
    /// actor) refused a wait for a synchronous singleton — its maker has suspended, or waits for
    /// the main actor — notes it in its resolution (or, for a synchronous lookup nested in such
    /// a step, in the async lookup it runs inside of): the lookup's async driver then waits for
    /// it by suspending and makes again (`Resolution.awaitRefusedWait`), rather than fail where
    /// a thread would have waited. (An async definition is never waited for synchronously: that
    /// `requiresAwait` stands.) Called with the lock held.
    private func refusedWait(_ resolution: Resolution) -> SlotClaim<MadeValue> {
        if !records[index].isAsync, let awaiting = resolution.awaitingLookup {
            awaiting.refusedWait = Resolution.RefusedWait(context: unretainedContext.object, index: index, key: key)
        }
        return .failed(requiresAwait(resolution))
    }

    /// How a wait for the end of the singleton's making ended (`waitUntilNobodyMakesIt`).
    enum WaitEnd {
        /// Nobody makes it any more: made, or given up.
        case ended
        /// Waiting would close a cycle of waits through the waiter's own makings.
        case cycle
        /// The making must not be waited for, even by suspending.
        case mustNotWait
    }

    /// Waits by suspending until nobody is making the singleton any more, made or given up
    /// (`Resolution.awaitRefusedWait`), or until waiting would close a cycle or must not be done.
    func waitUntilNobodyMakesIt(_ resolution: Resolution) async throws(ContextError) -> WaitEnd {
        let end = try await WaitTarget.singleton(self).acquireSuspending(resolution) { () -> SlotClaim<WaitEnd> in
            settleLocked()
            if records[index].published.load(ordering: .acquiring) != nil || states[index].phase.isIdle || isClosed { return .made(.ended) }
            let phase = states[index].phase
            if Coordinator.cycle(through: phase, to: resolution) != nil { return .made(.cycle) }
            return phase.mayBeWaitedFor(synchronously: false) ? .wait : .made(.mustNotWait)
        }
        return end ?? .mustNotWait
    }

    /// Whether a lookup may wait for the end of `phase`: by the phase's rules
    /// (`CreationPhase.mayBeWaitedFor`), and never synchronously for an async definition.
    /// Called with the lock held.
    private func mayWait(for phase: CreationPhase, _ waitsSynchronously: Bool) -> Bool {
        !(waitsSynchronously && records[index].isAsync) && phase.mayBeWaitedFor(synchronously: waitsSynchronously)
    }

    /// Whether the singleton's object is made and being injected (or waits for its group), a
    /// class instance: what a lookup in a property cycle through it receives early.
    func isSharedEarly() -> Bool {
        guard records[index].scope.isSingleton else { return false }
        return Coordinator.lock.withLock { () -> Bool in
            settleLocked()
            switch states[index].phase {
            case .injecting(_, _, true), .deferred(_, true): return true
            default: return false
            }
        }
    }

    /// The keys of the waits that would close a cycle if `resolution` waited for the singleton,
    /// which something is making; `nil` if nothing is, or no cycle.
    func cycle(to resolution: Resolution) -> [String]? {
        Coordinator.lock.withLock {
            settleLocked()
            let phase = states[index].phase
            return phase.isIdle ? nil : Coordinator.cycle(through: phase, to: resolution)
        }
    }

    // MARK: Waiters

    /// The slot's phase. Called with the lock held.
    var phase: CreationPhase {
        settleLocked()
        return states[index].phase
    }

    // MARK: Owners without the lock

    /// Makes the slot's phase say where its making stands, before the lock's holder reads or
    /// changes it: a lookup that claimed the slot without the lock (`SlotOwner`) becomes its
    /// owner under the lock (`making(owner, depth)`), which it then cannot finish without; a
    /// publication under way without the lock is waited for. Called with the lock held.
    @inline(__always)
    func settleLocked() {
        let word = records[index].owner.load(ordering: .acquiring)
        if word == SlotOwner.free || word == SlotOwner.locked { return }
        settleLockFreeOwner()
    }

    /// Waits for a publication under way without the lock to end. Called with the lock held.
    func waitForPublicationLocked() {
        while records[index].owner.load(ordering: .acquiring) == SlotOwner.publishing { SlotOwner.letPublicationFinish() }
    }

    @inline(never)
    private func settleLockFreeOwner() {
        while true {
            let word = records[index].owner.load(ordering: .acquiring)
            if word == SlotOwner.free || word == SlotOwner.locked { return }
            if word == SlotOwner.publishing {
                SlotOwner.letPublicationFinish()
                continue
            }
            guard records[index].owner.compareExchange(expected: word, desired: SlotOwner.locked, ordering: .acquiringAndReleasing).exchanged else { continue }
            // The owner is still making it (its last step changes the word first, and now needs
            // the lock), so its resolution is alive.
            let (resolution, depth) = SlotOwner.owner(in: word)
            guard word & SlotOwner.injectingFlag != 0 else {
                states[index].phase = .making(owner: resolution.object, depth: depth)
                return
            }
            // Injecting: the object was stored before the flag was set (release, read by this
            // exchange's acquire). Registered in its group now, as `beginInjecting` would have:
            // whatever takes it early from here on waits for that injection.
            let owner = resolution.object
            states[index].phase = .injecting(owner: owner, depth: depth, shareable: states[index].made!.isReference)
            owner.group.root.injectors.append(.init(resolution: owner, depth: depth))
            return
        }
    }

    /// Claims the slot for `resolution` without the lock, when nobody else is making the
    /// singleton and nothing about it needs the lock (a weak, async or made singleton, a closed
    /// context): the owner's word (`SlotOwner.word`), or `nil` to claim it under the lock.
    @inline(__always)
    func claimWithoutLock(_ resolution: Resolution) -> UInt? {
        guard records[index].published.load(ordering: .acquiring) == nil, records[index].scope != .weak, !records[index].isAsync, !isClosed,
              let word = SlotOwner.word(resolution, depth: resolution.depth + 1),
              records[index].owner.compareExchange(expected: SlotOwner.free, desired: word, ordering: .acquiringAndReleasing).exchanged
        else { return nil }
        // Published between the first load and the claim (the word is freed after the value is
        // published): given back, for the lock's claim to return it.
        guard records[index].published.load(ordering: .acquiring) == nil else {
            abandon(ownedAs: word)
            return nil
        }
        return word
    }

    /// Adds a task waiting for the singleton. Called with the lock held.
    func add(_ waiter: AsyncWaiter) {
        if states[index].asyncWaiters == nil {
            states[index].asyncWaiters = [waiter]
        } else {
            states[index].asyncWaiters!.append(waiter)
        }
    }

    /// Removes a waiting task, if it is still there. Called with the lock held.
    func remove(_ waiter: AsyncWaiter) {
        if let position = states[index].asyncWaiters?.firstIndex(where: { $0 === waiter }) {
            states[index].asyncWaiters!.remove(at: position)
        }
    }

    /// The suspended tasks waiting for the singleton, to resume after the lock. Called with the
    /// lock held.
    func wakeWaiters() -> [Resumption<Void>] {
        guard let waiters = states[index].asyncWaiters else { return [] }
        states[index].asyncWaiters = nil
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
