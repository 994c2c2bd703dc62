extension ApplicationContext {
    /// Makes (or, for a singleton, copies) the object of definition `index`, declared as the
    /// caller's type, into `result`.
    func make(_ index: Int, into result: ValueSlot, from requester: Requester?) throws(ContextError) -> Outcome {
        try Resolution.run(from: requester) { resolution, thread throws(ContextError) -> Outcome in
            try make(index, into: result, in: resolution, on: thread)
        }
    }

    /// `make` in `resolution`, which `thread` (the calling thread) is executing at the depth the
    /// object is asked for.
    @inline(__always)
    func make(_ index: Int, into result: ValueSlot, in resolution: Resolution, on thread: ThreadState) throws(ContextError) -> Outcome {
        try onEnoughStack(resolution, thread) { resolution, thread throws(ContextError) -> Outcome in
            if records[index].scope == .prototype {
                try makePrototype(index, resolution, thread) { resolution throws(ContextError) in
                    try construct(index, into: result, resolution)
                }
            } else {
                try singleton(index, resolution, thread).copy(into: result)
            }
            return .madeInto
        }
    }

    /// Makes the object of definition `index` as the type its definition declares.
    func makeAny(_ index: Int, from requester: Requester?) throws(ContextError) -> Any {
        try Resolution.run(from: requester) { resolution, thread throws(ContextError) -> Any in
            try makeAny(index, resolution, thread)
        }
    }

    func makeAny(_ index: Int, _ resolution: Resolution, _ thread: ThreadState) throws(ContextError) -> Any {
        try onEnoughStack(resolution, thread) { resolution, thread throws(ContextError) -> Any in
            if records[index].scope == .prototype {
                return try makePrototype(index, resolution, thread) { resolution throws(ContextError) -> Any in
                    try constructAny(index, resolution)
                }
            }
            return try singleton(index, resolution, thread).anyValue
        }
    }

    /// Runs `body` here, or on a fresh thread when this one's stack is nearly used up.
    @inline(__always)
    func onEnoughStack<R>(_ resolution: Resolution, _ thread: ThreadState, _ body: (Resolution, ThreadState) throws(ContextError) -> R) throws(ContextError) -> R {
        if thread.isStackLow {
            return try FreshStack.run(continuing: resolution, body)
        }
        return try body(resolution, thread)
    }

    // MARK: Prototypes

    /// Runs `body`, which makes a prototype of definition `index`, with the definition on the
    /// resolution path; a prototype this lookup is already making is a cycle.
    @inline(__always)
    func makePrototype<R>(_ index: Int, _ resolution: Resolution, _ thread: ThreadState, _ body: (Resolution) throws(ContextError) -> R) throws(ContextError) -> R {
        if records[index].isAsync { throw requiresAwait(index, resolution) }
        if resolution.isMaking(index, of: self) { throw prototypeCycle(index, resolution) }
        if resolution.collectsStartup { noteStartupBegan(index, resolution) }
        resolution.push(self, index, injectInits: thread.injectInits)
        thread.injectInits = 0
        defer { thread.injectInits = resolution.pop() }
        let made = try body(resolution)
        prototypeMade(index, resolution)
        return made
    }

    @inline(never)
    func prototypeCycle(_ index: Int, _ resolution: Resolution) -> ContextError {
        let prefix = resolution.isMaking(index, of: self, ownLookupOnly: true) ? resolution.path : resolution.combinedPath
        return .circularDependency(path: prefix + [table.keys[index]])
    }

    /// Bookkeeping after a prototype of definition `index` was made, its frame still pushed.
    @inline(__always)
    func prototypeMade(_ index: Int, _ resolution: Resolution) {
        if !records[index].edgesRecorded.load(ordering: .relaxed) { records[index].edgesRecorded.store(true, ordering: .relaxed) }
        if resolution.collectsStartup { noteStartup(index, resolution) }
    }

    /// Tells the start-up collector that definition `index` was made while an eager singleton was.
    @inline(never)
    func noteStartup(_ index: Int, _ resolution: Resolution) {
        resolution.session.startup?.made(index, of: self, isEager: resolution.isStartingEager(framesAbove: 1))
    }

    /// Tells the start-up collector that definition `index` is about to be made.
    @inline(never)
    func noteStartupBegan(_ index: Int, _ resolution: Resolution) {
        resolution.session.startup?.began(index, of: self, isEager: resolution.isStartingEager(framesAbove: 0))
    }

    @inline(never)
    func requiresAwait(_ index: Int, _ resolution: Resolution?) -> ContextError {
        let key = table.keys[index]
        return .requiresAwait(key: key, path: (resolution?.path ?? []) + [key])
    }

    // MARK: Singletons

    /// The made singleton of definition `index`, making it in `resolution` if nobody has.
    ///
    /// Exactly once: the first lookup marks the definition `making` under `Coordinator.lock`,
    /// runs the closure without the lock, caches the object for its own lookup (`injecting`),
    /// injects it, then publishes it with its group and wakes the waiters. A lookup that finds
    /// the definition busy waits, unless waiting would close a cycle (`Coordinator.cycle`): then
    /// it takes the early object of a singleton being injected (a property cycle) or throws
    /// `circularDependency` (a cycle through closures).
    func singleton(_ index: Int, _ resolution: Resolution, _ thread: ThreadState) throws(ContextError) -> MadeValue {
        let slot = WaitTarget.definition(Unretained(self), index)
        if let made = try slot.acquireBlocking(resolution, { claim(index, resolution, waitsSynchronously: true) }) { return made }
        return try createSingleton(index, resolution, thread)
    }

    /// The keys of the waits that would close a cycle if `resolution` waited for definition
    /// `index`, which something is making; `nil` if nothing is, or no cycle.
    func cycle(_ index: Int, to resolution: Resolution) -> [String]? {
        Coordinator.lock.withLock {
            let phase = states[index].phase
            return phase.isIdle ? nil : Coordinator.cycle(through: phase, to: resolution)
        }
    }

    /// What a lookup in `resolution` does about singleton `index` now: the singleton's step of the
    /// creation state machine. Called with the lock held.
    func claim(_ index: Int, _ resolution: Resolution, waitsSynchronously: Bool) -> SlotClaim<MadeValue> {
        if records[index].published.load(ordering: .relaxed) != nil { return .made(states[index].made!) }
        if records[index].scope == .weak, let made = liveWeakSingleton(index) { return .made(made) }
        if isClosed { return .failed(closedError(looking: table.keys[index])) }
        let phase = states[index].phase
        switch phase {
        case .idle:
            if waitsSynchronously && records[index].isAsync { return .failed(requiresAwait(index, resolution)) }
            states[index].phase = .making(owner: resolution, depth: resolution.depth + 1)
            return .claimed
        case let .deferred(group, _) where group.root === resolution.group.root:
            // Finished, waiting to be published with this lookup's own group.
            group.root.lastEarlyReference = Coordinator.nextSequence()
            return .made(states[index].made!)
        case .making, .injecting, .deferred:
            if let waited = Coordinator.cycle(through: phase, to: resolution) {
                let cyclePath = resolution.cyclePrefix(closedBy: phase.blockers.first?.resolution) + [table.keys[index]] + waited
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
                if records[index].isAsync || (phase.mayAwait && Resolution.isInTask) { return .failed(requiresAwait(index, resolution)) }
                if phase.blockers.contains(where: { $0.resolution.awaitsMainActor }), MainActorCall.isOnMainActor {
                    return .failed(requiresAwait(index, resolution))
                }
            }
            return .wait
        }
    }

    /// Makes, injects and publishes the singleton of definition `index`, which `resolution` has
    /// claimed.
    ///
    /// The singleton is cached for this lookup before its properties are injected, so singletons
    /// may reference each other through properties. Whatever is made while it is injected may
    /// hold its unfinished object, so it is published with its `PublicationGroup`.
    private func createSingleton(_ index: Int, _ resolution: Resolution, _ thread: ThreadState) throws(ContextError) -> MadeValue {
        if resolution.collectsStartup { noteStartupBegan(index, resolution) }
        resolution.push(self, index, injectInits: thread.injectInits)
        thread.injectInits = 0
        defer { thread.injectInits = resolution.pop() }
        let earlyMark = Coordinator.latestSequence
        let made: MadeValue
        do throws(ContextError) {
            made = try constructSingleton(index, resolution)
        } catch {
            abandon(index)
            throw error
        }
        guard let mark = try publishedOrInjecting(index, made, resolution, wrappersMade: thread.injectInits, earlyMark: earlyMark) else { return made }
        do throws(ContextError) {
            try injectSingleton(made, index, resolution)
        } catch {
            failInjecting(index, resolution, since: mark)
            throw error
        }
        try finishCreating(index, resolution)
        return made
    }

    /// The step after singleton `index`'s closure returned `made`, shared by both ways of making
    /// it: published at once when it has nothing to inject (`nil`), else cached for
    /// `resolution` while it is injected, and the mark that tells what was made since.
    func publishedOrInjecting(_ index: Int, _ made: MadeValue, _ resolution: Resolution, wrappersMade: Int, earlyMark: UInt64) throws(ContextError) -> UInt64? {
        if try publishIfNothingToInject(index, made, resolution, wrappersMade: wrappersMade, earlyMark: earlyMark) {
            singletonMade(index, resolution)
            return nil
        }
        return beginInjecting(index, made, resolution)
    }

    /// The last step of making singleton `index`, injected: published with its group.
    func finishCreating(_ index: Int, _ resolution: Resolution) throws(ContextError) {
        try finishInjecting(index, resolution)
        singletonMade(index, resolution)
    }

    /// A singleton whose object has nothing to inject (no `@Inject` field, no `didInject`) needs
    /// no injecting phase: nobody can see it early, so it is published at once, in one round of
    /// the lock. `false` otherwise.
    ///
    /// Also while its group is injecting others (the common case: the singletons a handler's
    /// properties need, made during its injection), as long as no lookup of the group received
    /// an early reference since it began (`earlyMark`, read before its closure ran): only an
    /// early reference could have given it an unfinished object to hold, and every one goes
    /// through `claim`, which stamps the group (`PublicationGroup.lastEarlyReference`).
    /// Otherwise it waits for its group like any other.
    func publishIfNothingToInject(_ index: Int, _ made: MadeValue, _ resolution: Resolution, wrappersMade: Int, earlyMark: UInt64) throws(ContextError) -> Bool {
        let nothingToInject = InjectionPlan.unretained(of: made.dynamicType).with { plan in
            plan.isEmpty || (plan.isEmptyUnlessStripped && wrappersMade == 0)
        }
        guard nothingToInject else { return false }
        let lock = Coordinator.lock
        lock.lock()
        guard resolution.group.isIdle || resolution.group.root.lastEarlyReference <= earlyMark, !isClosed else {
            lock.unlock()
            return false
        }
        states[index].made = made
        let unkept = publishLocked(index, made)
        let woken = wakeWaiters(index)
        lock.broadcast()
        lock.unlock()
        withExtendedLifetime(unkept) {}
        for task in woken { task.resume() }
        return true
    }

    /// Bookkeeping after singleton `index` was made and injected, its frame still pushed.
    func singletonMade(_ index: Int, _ resolution: Resolution) {
        records[index].edgesRecorded.store(true, ordering: .relaxed)
        if resolution.collectsStartup { noteStartup(index, resolution) }
    }

    /// The closure of singleton `index` failed: nothing is cached, waiters try again.
    func abandon(_ index: Int) {
        var woken: [Resumption<Void>] = []
        Coordinator.lock.withLock {
            states[index].phase = .idle
            woken = wakeWaiters(index)
            Coordinator.lock.broadcast()
        }
        for task in woken { task.resume() }
    }

    /// Caches `made` for `resolution` while it is injected; returns the mark that tells what
    /// was made since.
    func beginInjecting(_ index: Int, _ made: MadeValue, _ resolution: Resolution) -> UInt64 {
        let shareable = made.isReference
        return Coordinator.lock.withLock {
            states[index].made = made
            states[index].phase = .injecting(owner: resolution, depth: resolution.depth, shareable: shareable)
            resolution.group.root.injectors.append(.init(resolution: resolution, depth: resolution.depth))
            return Coordinator.nextSequence()
        }
    }

    /// Injecting singleton `index` failed: it, and everything its group made since `mark`
    /// (which may hold it), is dropped; the objects are released after the lock.
    func failInjecting(_ index: Int, _ resolution: Resolution, since mark: UInt64) {
        var garbage: [AnyObject] = []
        var late: [AnyObject] = []
        var woken: [Resumption<Void>] = []
        Coordinator.lock.withLock {
            let group = resolution.group.root
            group.removeInjector(resolution, depth: resolution.depth)
            if let made = states[index].made.take() { garbage.append(made.owner) }
            states[index].phase = .idle
            woken += wakeWaiters(index)
            var kept: [PublicationGroup.Pending] = []
            for pending in group.pending {
                guard pending.sequence > mark else { kept.append(pending); continue }
                if let made = pending.context.states[pending.index].made.take() { garbage.append(made.owner) }
                pending.context.states[pending.index].phase = .idle
                woken += pending.context.wakeWaiters(pending.index)
                garbage.append(pending.context)
            }
            group.pending = kept
            if group.injectors.isEmpty { Self.publishAll(group, &garbage, &woken, late: &late) }
            Coordinator.lock.broadcast()
        }
        for task in woken { task.resume() }
        LateDisposal.dispose(late)
        withExtendedLifetime(garbage) {}
    }

    /// Singleton `index` is made and injected: it waits for its group, which is published when
    /// its last injection ends.
    ///
    /// - Throws: `contextClosed` when this context was closed while it was being made: it is
    ///   not published, and it is disposed.
    func finishInjecting(_ index: Int, _ resolution: Resolution) throws(ContextError) {
        if try finishAlone(index, resolution) { return }
        var garbage: [AnyObject] = []
        var woken: [Resumption<Void>] = []
        var late: [AnyObject] = []
        var mine: MadeValue?
        Coordinator.lock.withLock {
            let group = resolution.group.root
            group.removeInjector(resolution, depth: resolution.depth)
            guard case let .injecting(_, _, shareable) = states[index].phase else { return }
            mine = states[index].made
            states[index].phase = .deferred(group: group, shareable: shareable)
            group.pending.append(.init(context: self, index: index, sequence: Coordinator.nextSequence()))
            if group.injectors.isEmpty { Self.publishAll(group, &garbage, &woken, late: &late) }
            Coordinator.lock.broadcast()
        }
        for task in woken { task.resume() }
        let closedLate = late.contains { $0 === mine?.owner }
        mine = nil
        LateDisposal.dispose(late)
        withExtendedLifetime(garbage) {}
        if closedLate { throw closedError(looking: table.keys[index]) }
    }

    /// The common case of `finishInjecting`: the singleton is the only one its group is making,
    /// so it is published at once, without the group's lists. `false` if it is not alone.
    @inline(__always)
    private func finishAlone(_ index: Int, _ resolution: Resolution) throws(ContextError) -> Bool {
        let lock = Coordinator.lock
        lock.lock()
        let group = resolution.group.root
        guard group.pending.isEmpty, group.injectors.count == 1, group.injectors[0].resolution === resolution,
              !isClosed, states[index].asyncWaiters.isEmpty else {
            lock.unlock()
            return false
        }
        group.injectors.removeAll(keepingCapacity: true)
        let unkept = publishLocked(index, states[index].made!)
        lock.broadcast()
        lock.unlock()
        withExtendedLifetime(unkept) {}
        return true
    }

    /// Publishes every singleton of `group`. Called with the lock held; what to release, to
    /// resume and (for contexts closed meanwhile) to dispose is handed back for after it.
    static func publishAll(_ group: PublicationGroup, _ garbage: inout [AnyObject], _ woken: inout [Resumption<Void>], late: inout [AnyObject]) {
        for pending in group.pending {
            let context = pending.context, index = pending.index
            if context.isClosed {
                // Made while its context was closing: never handed out by the context, and
                // disposed by the lookup that made it.
                if let made = context.states[index].made.take() { late.append(made.owner) }
                context.states[index].phase = .idle
            } else if let unkept = context.publishLocked(index, context.states[index].made!) {
                garbage.append(unkept.owner)
            }
            woken += context.wakeWaiters(index)
            garbage.append(context)
        }
        group.pending.removeAll(keepingCapacity: true)
    }

    /// Publishes singleton `index`, whose value (`made`) is in place: lock-free lookups see it from
    /// now on. Called with the lock held. A weak singleton is kept weakly instead: the strong
    /// value it no longer keeps is returned, for the caller to release after the lock.
    @inline(__always)
    func publishLocked(_ index: Int, _ made: MadeValue) -> MadeValue? {
        states[index].madeOrder = Coordinator.nextSequence()
        states[index].phase = .idle
        if records[index].scope == .weak { return keepWeakly(index) }
        records[index].published.store(made.published(in: tables.cells, at: index), ordering: .releasing)
        return nil
    }

    /// Keeps weak singleton `index` weakly and hands back the strong value. Called with the lock
    /// held.
    @inline(never)
    func keepWeakly(_ index: Int) -> MadeValue? {
        let made = states[index].made.take()
        // Allocated under the lock, but no user code runs: the old reference's object is gone
        // or held by someone else (a `WeakReference` owns nothing).
        states[index].weakObject = made.map { WeakReference($0.anyValue as AnyObject) }
        return made
    }

    /// Weak singleton `index`'s object, strongly held, while it is alive, else `nil`. Called with
    /// the lock held: the value holds a strong reference, released by the caller after the lock.
    @inline(never)
    func liveWeakSingleton(_ index: Int) -> MadeValue? {
        guard let object = states[index].weakObject?.object else { return nil }
        func made<Object>(_: Object.Type, _ object: AnyObject, isClassType: Bool) -> MadeValue {
            // The definition declares a class type (`createWeakSingleton`'s `AnyObject` bound).
            MadeValue.holding(object as! Object, isClassType: isClassType)
        }
        return made(records[index].objectType, object, isClassType: records[index].isClassType)
    }

    /// Whether weak singleton `index` is alive now.
    func isAlive(_ index: Int) -> Bool {
        // The strong reference is released after the lock: it may be the last one.
        let object = Coordinator.lock.withLock { states[index].weakObject?.object }
        return object != nil
    }

    /// The suspended tasks waiting for definition `index`, to resume after the lock. Called with
    /// the lock held.
    func wakeWaiters(_ index: Int) -> [Resumption<Void>] {
        guard !states[index].asyncWaiters.isEmpty else { return [] }
        let waiters = states[index].asyncWaiters
        states[index].asyncWaiters = []
        return waiters.compactMap { $0.wake() }
    }
}
