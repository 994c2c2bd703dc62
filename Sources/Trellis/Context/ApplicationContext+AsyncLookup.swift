extension ApplicationContext {
    /// The object named `keyOrAlias`, made by an async lookup if needed: async definitions are
    /// awaited, and a singleton another task or thread is making is waited for by suspending,
    /// never by blocking a thread.
    ///
    /// ```swift
    /// let report: Report = try await app.object("report")
    /// ```
    /// A made singleton costs what the synchronous lookup costs: no suspension, no lock, and no
    /// executor hop — the lookup runs on the caller's actor (`nonisolated(nonsending)`), and only
    /// making something moves off it.
    ///
    /// - Throws: what ``object(_:as:)`` throws; a task cancelled while it waits for a singleton
    ///   another task is making stops waiting with
    ///   ``ContextError/creationFailed(key:path:underlying:)`` wrapping `CancellationError`.
    @inlinable
    nonisolated(nonsending) public func object<T>(_ keyOrAlias: String, as type: T.Type = T.self) async throws(ContextError) -> T {
        // Only the made singleton is inlined into the caller: every other branch (and its
        // suspension point) would be part of the caller's async frame on every lookup.
        var hash: UInt32 = 0
        if let made = _madeHere(named: keyOrAlias, type: ObjectIdentifier(T.self), hash: &hash) {
            return made.value(as: T.self)
        }
        return try await _objectAsync(named: keyOrAlias, hash: hash, as: T.self, from: nil)
    }

    /// The hot path of an async lookup: a made singleton of this open context, declared as
    /// `type`, under an ASCII name; else `nil`, and `hash` is the name's hash if it was computed
    /// (0 otherwise), so the slow path does not hash it again.
    @usableFromInline
    func _madeHere(named name: String, type: ObjectIdentifier, hash: inout UInt32) -> ValueSlot? {
        guard !isClosed else { return nil }
        hash = NameTable.hash(name)
        guard hash != 0, let index = table.definition(named: name, hash: hash), records[index].typeID == type else { return nil }
        return records[index].published.load(ordering: .acquiring)
    }

    /// Finds `name` and returns a made singleton without making anything: `.made` (declared as
    /// `type`), `.convertible` (declared otherwise), `.needsConversion` (not made), `.notFound`.
    ///
    /// - Throws: `contextClosed` when the walk reaches a closed context.
    @usableFromInline
    func _peek(named name: String, type: ObjectIdentifier, from requester: Requester?) throws(ContextError) -> Outcome {
        switch walk(to: NameTable.lookupKey(name)) {
        case .missing:
            return .notFound
        case let .closed(context):
            throw context.object.closedError(looking: name)
        case let .found(context, index, levels):
            requester?.recordEdge(to: index, levels: levels)
            return context.with { context in
                guard let made = context.records[index].published.load(ordering: .acquiring) else { return .needsConversion }
                let declared = context.records[index].typeID
                return declared == type ? .made(made) : .convertible(made, declared)
            }
        }
    }

    /// The slow path of an async lookup: find (`hash`: the name's, or 0 if not computed), make
    /// if needed (async), convert.
    @usableFromInline
    func _objectAsync<T>(named name: String, hash: UInt32 = 0, as type: T.Type, from requester: AsyncRequester?) async throws(ContextError) -> T {
        let found = try locateOpen(hash == 0 ? NameTable.lookupKey(name) : (name, hash), named: name, from: requester)
        return try await found.context.resolveAsync(found.index, as: T.self, from: requester)
    }

    /// `locateOpen(_:named:path:)` for an async lookup from `requester`, whose dependency edge
    /// is noted.
    private func locateOpen(_ key: LookupKey, named name: String, from requester: AsyncRequester?) throws(ContextError) -> (context: ApplicationContext, index: Int) {
        let found = try locateOpen(key, named: name, path: (requester?.path ?? []) + [name])
        requester?.noteLookup(to: found.index, levels: found.levels)
        return (found.context, found.index)
    }

    /// The object of definition `index`, made by an async lookup if needed, as a `T`.
    func resolveAsync<T>(_ index: Int, as type: T.Type, from requester: AsyncRequester?) async throws(ContextError) -> T {
        if records[index].typeID == ObjectIdentifier(T.self), let made = records[index].published.load(ordering: .acquiring) {
            return made.value(as: T.self)
        }
        let value: Any
        if records[index].scope == .prototype {
            value = try await Resolution.runAsync(from: requester) { resolution async throws(ContextError) -> Any in
                try await makeAnyAsync(index, resolution)
            }
        } else {
            let made: MadeValue
            if records[index].published.load(ordering: .acquiring) != nil {
                made = Coordinator.lock.withLock { states[index].made! }
            } else {
                made = try await Resolution.runAsync(from: requester) { resolution async throws(ContextError) -> MadeValue in
                    try await singletonAsync(index, resolution)
                }
            }
            if made.typeID == ObjectIdentifier(T.self) { return made.value(as: T.self) }
            value = made.anyValue
        }
        if let typed = value as? T { return typed }
        let key = table.keys[index]
        throw .mismatch(key, value, as: T.self, path: (requester?.path ?? []) + [key])
    }

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
