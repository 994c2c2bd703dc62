/// How the making of a claimed singleton ends: published (at once when it has nothing to inject,
/// else with its `PublicationGroup` when every injection of the group is done), abandoned (its
/// closure threw), or dropped with what its group made since (its injection threw); a weak
/// singleton kept weakly instead of published; the waiters woken. Everything here runs its
/// state change under `Coordinator.lock` and releases objects after it.
extension ApplicationContext {
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
    @inline(__always)
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
