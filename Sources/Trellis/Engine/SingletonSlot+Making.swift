/// The making of a singleton: the slot's steps in order, with the closure run and the object
/// injected between them, outside the lock. The synchronous driver waits by blocking, the async
/// one by suspending; the steps are the same.
extension SingletonSlot {
    /// The made singleton, made in `resolution` if nobody has made it.
    ///
    /// Exactly once: the first lookup claims the definition (through its owner word, without
    /// the lock, when nobody else asks: `SlotOwner`; else by marking it `making` under
    /// `Coordinator.lock`), runs the closure without the lock, caches the object for its own
    /// lookup (`injecting`), injects it, then publishes it (with its group, when it handed out
    /// an early reference) and wakes the waiters. A lookup that finds
    /// the definition busy waits, unless waiting would close a cycle (`Coordinator.cycle`): then
    /// it takes the early object of a singleton being injected (a property cycle) or throws
    /// `circularDependency` (a cycle through closures).
    ///
    /// A singleton nobody else is making is claimed without the lock, and published without it
    /// when its object has nothing to inject and nobody asked for it meanwhile (`SlotOwner`).
    func made(_ resolution: Resolution, _ thread: ThreadState) throws(ContextError) -> MadeValue {
        let word = claimWithoutLock(resolution)
        if word == nil, let made = try WaitTarget.singleton(self).acquireBlocking(resolution, { claim(resolution, waitsSynchronously: true) }) { return made }
        let mark = GroupSettlement.mark
        var dropped = false
        let made = try unretainedContext.with { context throws(ContextError) -> MadeValue in
            try create(in: context, resolution, thread, ownedAs: word, dropped: &dropped)
        }
        // Dropped for what it may hold: claimed again.
        if dropped { return try self.made(resolution, thread) }
        if waitsForItsGroup(resolution, made) { return try publishedWithItsGroup(resolution, thread) }
        // A weak singleton is kept, not published: its lookup waits for the group as a
        // prototype's does, and makes it again if the group was dropped (with its slot).
        if records[index].scope == .weak, GroupSettlement.mustSettle(resolution, since: mark) {
            switch GroupSettlement.settle(resolution, since: mark) {
            case .keep: break
            case .makeAgain: return try self.made(resolution, thread)
            case .refuse: throw requiresAwait(resolution)
            }
        }
        return made
    }

    /// The singleton this lookup made, once its group published it (`waitsForItsGroup`); made
    /// again if the group was dropped meanwhile (another lookup's injection failed). Apart, so
    /// the common making stays short.
    @inline(never)
    private func publishedWithItsGroup(_ resolution: Resolution, _ thread: ThreadState) throws(ContextError) -> MadeValue {
        while true {
            if let published = try WaitTarget.singleton(self).acquireBlocking(resolution, { claim(resolution, waitsSynchronously: true) }) { return published }
            // Dropped with its group and claimed again, under the lock.
            var dropped = false
            let made = try unretainedContext.with { context throws(ContextError) -> MadeValue in
                try create(in: context, resolution, thread, ownedAs: nil, dropped: &dropped)
            }
            if !dropped, !waitsForItsGroup(resolution, made) { return made }
        }
    }

    /// Whether the lookup `resolution` runs, which made the singleton (`made`) and is about to
    /// hand it to its caller, must first wait for it to be published: it is not yet, because its
    /// group — merged with another lookup's by a property cycle across them — waits for that
    /// lookup's injections, and until then the singleton may hold an object whose properties are
    /// not all filled. Or the slot has published another object: `made` was dropped with its
    /// group (another lookup's injection failed) and the singleton made again since, and the
    /// lookup hands out that one, not its own. Only a lookup called from user code (not the
    /// continuation of a closure's work, nor a lookup inside a making, whose outer lookup
    /// waits); never for a weak singleton, which is kept rather than published.
    @inline(__always)
    func waitsForItsGroup(_ resolution: Resolution, _ made: MadeValue) -> Bool {
        resolution.depth == 0 && resolution.isCalledFromUserCode && records[index].scope != .weak && !hasPublished(made)
    }

    /// Whether the slot's published value is `made` (not merely some value).
    @inline(__always)
    private func hasPublished(_ made: MadeValue) -> Bool {
        guard let published = records[index].published.load(ordering: .acquiring) else { return false }
        return made.isPublished(at: published)
    }

    /// Makes, injects and publishes the singleton, which `resolution` has claimed.
    ///
    /// The singleton is cached for this lookup before its properties are injected, so singletons
    /// may reference each other through properties. Whatever is made while it is injected may
    /// hold its unfinished object, so it is published with its `PublicationGroup`.
    ///
    /// `word`: the owner's word if `resolution` claimed the slot without the lock. `dropped`:
    /// set when the made singleton was dropped for what it may hold (`finishCreating`), for the
    /// caller to claim it again (not an optional result: the common path stays free of its
    /// copies).
    @inline(__always)
    private func create(in context: ApplicationContext, _ resolution: Resolution, _ thread: ThreadState, ownedAs word: UInt?, dropped: inout Bool) throws(ContextError) -> MadeValue {
        if resolution.collectsStartup { context.noteStartupBegan(index, resolution) }
        resolution.push(context, index, injectInits: thread.injectInits)
        thread.injectInits = 0
        defer { thread.injectInits = resolution.pop() }
        let creationMark = Coordinator.mark
        let made: MadeValue
        do throws(ContextError) {
            made = try Creation(of: index, in: context).constructSingleton(resolution)
        } catch {
            abandonFailedMaking(ownedAs: word)
            throw error
        }
        guard let injecting = try publishedOrInjecting(made, resolution, wrappersMade: thread.injectInits, since: creationMark, ownedAs: word) else { return made }
        do throws(ContextError) {
            try Creation(of: index, in: context).injectSingleton(made, resolution)
        } catch {
            failInjecting(resolution, since: injecting.mark)
            throw error
        }
        dropped = try !finishCreating(resolution, injecting)
        return made
    }

    /// `made` for an async lookup: the same steps, waiting by suspending; may make async
    /// definitions. The steps are `createWithoutWaiting`'s (an async closure awaited first), and
    /// only what the injection must await is awaited, by `PendingSingleton.finish`. A wait one
    /// of its synchronous steps was refused is made here, suspending, and the singleton made
    /// again (`Resolution.awaitRefusedWait`).
    func madeAsync(_ resolution: Resolution) async throws(ContextError) -> MadeValue {
        while true {
            do throws(ContextError) {
                let made = try await madeAsyncAttempt(resolution)
                resolution.retriedOnACycle = false
                return made
            } catch {
                try await resolution.awaitRefusedWait(after: error)
            }
        }
    }

    /// One attempt of `madeAsync`: claimed, made and published (or waited for).
    private func madeAsyncAttempt(_ resolution: Resolution) async throws(ContextError) -> MadeValue {
        let context = context
        if records[index].runsOnMainActor { return try await madeOnMainActor(context, resolution) }
        // Claimed without the lock as a synchronous lookup claims it: an async definition is
        // not (its closure suspends while it owns the slot), so an owner without the lock never
        // suspends before it publishes or begins injecting, whichever way it waits.
        var word = claimWithoutLock(resolution)
        if word == nil, let made = try await WaitTarget.singleton(self).acquireSuspending(resolution, { claim(resolution, waitsSynchronously: false) }) { return made }
        let mark = GroupSettlement.mark
        while true {
            let outcome: WithoutWaiting
            if records[index].isAsync {
                outcome = try await createAwaitingClosure(in: context, resolution, ownedAs: word)
            } else {
                outcome = try createWithoutWaiting(resolution, ownedAs: word)
            }
            let made: MadeValue
            switch outcome {
            case let .made(value): made = value
            case let .injecting(pending):
                guard let value = try await pending.finish(resolution) else { return try await madeAsync(resolution) }
                made = value
            case .dropped:
                // Dropped for what it may hold: claimed again.
                return try await madeAsync(resolution)
            }
            guard waitsForItsGroup(resolution, made) else {
                // A weak singleton is kept, not published: as in `made`.
                if records[index].scope == .weak, GroupSettlement.mustSettle(resolution, since: mark), await GroupSettlement.settle(resolution, since: mark) {
                    return try await madeAsync(resolution)
                }
                return made
            }
            if let published = try await WaitTarget.singleton(self).acquireSuspending(resolution, { claim(resolution, waitsSynchronously: false) }) { return published }
            // Dropped with its group and claimed again, as in `made`.
            word = nil
        }
    }

    /// `createWithoutWaiting` for an async closure: the closure awaited, then the same steps.
    private func createAwaitingClosure(in context: ApplicationContext, _ resolution: Resolution, ownedAs word: UInt?) async throws(ContextError) -> WithoutWaiting {
        if resolution.collectsStartup { context.noteStartupBegan(index, resolution) }
        resolution.push(context, index, injectInits: 0)
        defer { resolution.pop() }
        let creationMark = Coordinator.mark
        let made: MadeValue
        do {
            made = try await Creation(of: index, in: context).constructAsync(resolution)
        } catch {
            abandonFailedMaking(ownedAs: word)
            throw error
        }
        return try injectedWithoutWaiting(made, in: context, resolution, since: creationMark, ownedAs: word)
    }

    /// How far an async lookup got making a singleton without waiting.
    enum WithoutWaiting {
        /// Made (published, or deferred with its group).
        case made(MadeValue)
        /// Dropped for what it may hold (`SingletonSlot.finishCreating`): claim it again.
        case dropped
        /// Injecting, one of its properties to await (`PendingSingleton.finish`). Indirect:
        /// the common case stays the size of a made value.
        indirect case injecting(PendingSingleton)
    }

    /// Makes the singleton, which `resolution` has claimed (`word`: without the lock), as far as
    /// it can be without waiting: its synchronous closure run bound to the calling thread, then
    /// published, or injected up to the first property an async lookup must make: the steps of
    /// the blocking path (`create`), for the async drivers.
    func createWithoutWaiting(_ resolution: Resolution, ownedAs word: UInt?) throws(ContextError) -> WithoutWaiting {
        // At +0: the lookup making it holds the context.
        try unretainedContext.with { context throws(ContextError) -> WithoutWaiting in
            try createWithoutWaiting(in: context, resolution, ownedAs: word)
        }
    }

    private func createWithoutWaiting(in context: ApplicationContext, _ resolution: Resolution, ownedAs word: UInt?) throws(ContextError) -> WithoutWaiting {
        if resolution.collectsStartup { context.noteStartupBegan(index, resolution) }
        resolution.push(context, index, injectInits: 0)
        defer { resolution.pop() }
        let creationMark = Coordinator.mark
        let made: MadeValue
        do throws(ContextError) {
            made = try ThreadState.current.runningSynchronously(resolution) { () throws(ContextError) -> MadeValue in
                try Creation(of: index, in: context).constructSingleton(resolution)
            }
        } catch {
            abandonFailedMaking(ownedAs: word)
            throw error
        }
        return try injectedWithoutWaiting(made, in: context, resolution, since: creationMark, ownedAs: word)
    }

    /// The steps after the closure returned `made`, as far as they go without waiting:
    /// published, or injected up to the first property an async lookup must make (`injecting`,
    /// finished by `PendingSingleton.finish`). The singleton's frame is pushed.
    ///
    /// No count of wrappers made on one thread here (an async closure may hop threads): the
    /// stripped-reflection check is left to synchronous makes, as for injection.
    private func injectedWithoutWaiting(_ made: MadeValue, in context: ApplicationContext, _ resolution: Resolution, since creationMark: CreationMark, ownedAs word: UInt?) throws(ContextError) -> WithoutWaiting {
        guard let injecting = try publishedOrInjecting(made, resolution, wrappersMade: 0, since: creationMark, ownedAs: word) else { return .made(made) }
        do throws(ContextError) {
            if let started = try ObjectInjection.injectWithoutAwait(made, index, of: context, resolution) {
                return .injecting(PendingSingleton(slot: self, made: made, injecting: injecting, injection: started.injection, step: started.step))
            }
        } catch {
            failInjecting(resolution, since: injecting.mark)
            throw error
        }
        return try finishCreating(resolution, injecting) ? .made(made) : .dropped
    }

    /// The singleton for a property an async injection fills without awaiting: made here if
    /// its closure is synchronous and nobody else owns it (`createWithoutWaiting`); `nil` when
    /// the injection must await it instead (an async or main-actor closure, a weak singleton,
    /// another owner).
    func madeWithoutWaiting(_ resolution: Resolution) throws(ContextError) -> WithoutWaiting? {
        guard !records[index].isAsync, !records[index].runsOnMainActor, let word = claimWithoutLock(resolution) else { return nil }
        return try createWithoutWaiting(resolution, ownedAs: word)
    }

    /// Whether `error` is this lookup's own claim of the singleton refusing to block (on the
    /// main actor) for another owner's work that may suspend: a synchronous definition is never
    /// `requiresAwait` for itself otherwise.
    private func isRefusedWait(_ error: ContextError) -> Bool {
        guard case let .requiresAwait(key, _) = error else { return false }
        return key == self.key && !records[index].isAsync
    }

    /// A claim that never claims, for a lookup that must claim somewhere else (on the main
    /// actor): the made singleton, `nil` once nobody makes it, or the answer of `claim` while
    /// someone does (wait, an early reference in a property cycle, or an error). Called with the
    /// lock held.
    private func claimOnceFree(_ resolution: Resolution) -> SlotClaim<MadeValue?> {
        settleLocked()
        if records[index].published.load(ordering: .acquiring) == nil, states[index].phase.isIdle { return .made(nil) }
        switch claim(resolution, waitsSynchronously: false) {
        case let .made(made): return .made(made)
        case .wait: return .wait
        case let .failed(error): return .failed(error)
        case .claimed:
            // Not reached: the phase is not idle, and `claim` claims only an idle slot. Given back
            // if it were, for the hop to claim.
            becomeIdleLocked()
            return .made(nil)
        }
    }

    /// A main-actor singleton for an async lookup: the lookup hops to the main actor first and
    /// claims, makes, injects and publishes there, synchronously. Claiming before the hop would
    /// leave the definition owned by a lookup queued behind whatever runs on the main actor, and
    /// a synchronous lookup there could neither wait for it nor make it. On the main actor the
    /// only possible owners run there too or fail at once (`MainActorRequired`), so waiting is
    /// safe. While the hop is pending, a synchronous lookup on the main actor waiting for
    /// something this lookup already owns is told to await (`Resolution.awaitsMainActor`).
    private func madeOnMainActor(_ context: ApplicationContext, _ resolution: Resolution) async throws(ContextError) -> MadeValue {
        if records[index].published.load(ordering: .acquiring) != nil { return Coordinator.lock.withLock { states[index].made! } }
        resolution.setAwaitsMainActor(for: (context, index))
        defer { resolution.setAwaitsMainActor(for: nil) }
        do {
            // A main-actor closure called from here: no hop when the caller is on the main actor
            // already (`MainActor.run` would hop off it and back). It holds the context, so the
            // slot it makes there refers to a living one.
            let index = index
            let onMainActor: @MainActor @Sendable () throws -> SendableMadeValue = {
                let thread = ThreadState.current
                return SendableMadeValue(try thread.runningSynchronously(resolution) { () throws(ContextError) -> MadeValue in
                    try SingletonSlot(context, index).made(resolution, thread)
                })
            }
            while true {
                do {
                    return try await onMainActor().value
                } catch let error as ContextError where isRefusedWait(error) {
                    // Another lookup owns it and may suspend (it is being injected, say, with a
                    // group waiting for a task): the main actor must not block for that, but this
                    // lookup can wait — off the main actor, suspending — and hop again. (Here, not
                    // by `madeAsync`: an early reference ends this wait with the object.)
                    resolution.refusedWait = nil
                    if let made = try await WaitTarget.singleton(self).acquireSuspending(resolution, { claimOnceFree(resolution) }), let made { return made }
                }
            }
        } catch {
            throw .thrown(error, byClosureOf: key, path: resolution.path)
        }
    }
}
