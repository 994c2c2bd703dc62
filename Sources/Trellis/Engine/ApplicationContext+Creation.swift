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
}
