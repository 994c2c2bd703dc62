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
        let slot = SingletonSlot(self, index)
        if let made = try WaitTarget.singleton(slot).acquireBlocking(resolution, { slot.claim(resolution, waitsSynchronously: true) }) { return made }
        return try createSingleton(slot, resolution, thread)
    }

    /// Makes, injects and publishes the singleton of definition `index`, which `resolution` has
    /// claimed.
    ///
    /// The singleton is cached for this lookup before its properties are injected, so singletons
    /// may reference each other through properties. Whatever is made while it is injected may
    /// hold its unfinished object, so it is published with its `PublicationGroup`.
    private func createSingleton(_ slot: SingletonSlot, _ resolution: Resolution, _ thread: ThreadState) throws(ContextError) -> MadeValue {
        let index = slot.index
        if resolution.collectsStartup { noteStartupBegan(index, resolution) }
        resolution.push(self, index, injectInits: thread.injectInits)
        thread.injectInits = 0
        defer { thread.injectInits = resolution.pop() }
        let earlyMark = Coordinator.latestSequence
        let made: MadeValue
        do throws(ContextError) {
            made = try constructSingleton(index, resolution)
        } catch {
            slot.abandon()
            throw error
        }
        guard let mark = try slot.publishedOrInjecting(made, resolution, wrappersMade: thread.injectInits, earlyMark: earlyMark) else { return made }
        do throws(ContextError) {
            try injectSingleton(made, index, resolution)
        } catch {
            slot.failInjecting(resolution, since: mark)
            throw error
        }
        try slot.finishCreating(resolution)
        return made
    }

    // MARK: Async drivers (the same steps, waiting by suspending)

    /// Makes the object of definition `index` as its definition declares it, by an async lookup
    /// in `resolution`.
    func makeAnyAsync(_ index: Int, _ resolution: Resolution) async throws(ContextError) -> Any {
        if records[index].scope == .prototype {
            return try await makePrototypeAsync(index, resolution) { resolution async throws(ContextError) -> Any in
                let made = try await constructAsync(index, resolution)
                try await injectAsync(made, index, resolution)
                return made.anyValue
            }
        }
        return try await singletonAsync(index, resolution).anyValue
    }

    /// `makePrototype` for an async lookup.
    func makePrototypeAsync<R>(_ index: Int, _ resolution: Resolution, _ body: (Resolution) async throws(ContextError) -> R) async throws(ContextError) -> R {
        if resolution.isMaking(index, of: self) { throw prototypeCycle(index, resolution) }
        if resolution.collectsStartup { noteStartupBegan(index, resolution) }
        resolution.push(self, index, injectInits: 0)
        defer { resolution.pop() }
        let made = try await body(resolution)
        prototypeMade(index, resolution)
        return made
    }

    /// `singleton` for an async lookup: the same steps of the creation state machine, waiting
    /// by suspending; may make async definitions.
    func singletonAsync(_ index: Int, _ resolution: Resolution) async throws(ContextError) -> MadeValue {
        if records[index].runsOnMainActor { return try await singletonOnMainActor(index, resolution) }
        let slot = SingletonSlot(self, index)
        if let made = try await WaitTarget.singleton(slot).acquireSuspending(resolution, { slot.claim(resolution, waitsSynchronously: false) }) { return made }
        if resolution.collectsStartup { noteStartupBegan(index, resolution) }
        resolution.push(self, index, injectInits: 0)
        defer { resolution.pop() }
        let earlyMark = Coordinator.latestSequence
        let made: MadeValue
        do {
            made = try await constructAsync(index, resolution)
        } catch {
            slot.abandon()
            throw error
        }
        // No count of wrappers made on one thread here (an async closure may hop threads): the
        // stripped-reflection check is left to synchronous makes, as for injection.
        guard let mark = try slot.publishedOrInjecting(made, resolution, wrappersMade: 0, earlyMark: earlyMark) else { return made }
        do {
            try await injectAsync(made, index, resolution)
        } catch {
            slot.failInjecting(resolution, since: mark)
            throw error
        }
        try slot.finishCreating(resolution)
        return made
    }

    /// A main-actor singleton for an async lookup: the lookup hops to the main actor first and
    /// claims, makes, injects and publishes there, synchronously. Claiming before the hop would
    /// leave the definition owned by a lookup queued behind whatever runs on the main actor, and
    /// a synchronous lookup there could neither wait for it nor make it. On the main actor the
    /// only possible owners run there too or fail at once (`MainActorRequired`), so waiting is
    /// safe. While the hop is pending, a synchronous lookup on the main actor waiting for
    /// something this lookup already owns is told to await (`Resolution.awaitsMainActor`).
    private func singletonOnMainActor(_ index: Int, _ resolution: Resolution) async throws(ContextError) -> MadeValue {
        if records[index].published.load(ordering: .acquiring) != nil { return Coordinator.lock.withLock { states[index].made! } }
        resolution.setAwaitsMainActor(true)
        defer { resolution.setAwaitsMainActor(false) }
        do {
            // A main-actor closure called from here: no hop when the caller is on the main actor
            // already (`MainActor.run` would hop off it and back).
            let onMainActor: @MainActor @Sendable () throws -> SendableMadeValue = {
                let thread = ThreadState.current
                return SendableMadeValue(try thread.runningSynchronously(resolution) { () throws(ContextError) -> MadeValue in
                    try self.singleton(index, resolution, thread)
                })
            }
            return try await onMainActor().value
        } catch let error as ContextError {
            throw error
        } catch {
            throw .creationFailed(key: table.keys[index], path: resolution.path, underlying: error)
        }
    }
}
