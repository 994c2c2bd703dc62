/// How the making of a claimed singleton ends: published (at once when it has nothing to inject;
/// when its injection ends if it handed out no early reference, `finishAlone`; else with its
/// `PublicationGroup` when every injection of the group is done), abandoned (its closure threw),
/// or dropped with what may hold it (its injection threw: `dropLocked(with:since:)`); a weak
/// singleton kept weakly instead of published; the waiters woken. State changes run under
/// `Coordinator.lock`, which releases objects after it, except for a singleton its lookup claimed
/// without the lock (`SlotOwner`) that nobody asked for meanwhile: its injection begins
/// (`beginInjecting`) and it is published (`publishWithoutLock`, `publishInjectedWithoutLock`)
/// or abandoned without the lock.
extension SingletonSlot {
    /// A singleton its maker is injecting: what `finishCreating` and `failInjecting` need.
    struct Injecting {
        /// When the making began (read before the closure ran): an early reference taken since
        /// keeps the singleton from being published without the lock.
        let creationMark: CreationMark
        /// What the group made after this point is dropped with it if its injection fails.
        let mark: UInt64
        /// The owner's word, with `SlotOwner.injectingFlag`, while it injects without the lock;
        /// `nil` when the slot's phase says so under the lock.
        let word: UInt?
    }

    /// The step after the singleton's closure returned `made`, shared by both ways of making
    /// it: published at once when it has nothing to inject (`nil`), else cached for
    /// `resolution` while it is injected. `word`: the owner's word if `resolution` claimed the
    /// slot without the lock.
    func publishedOrInjecting(_ made: MadeValue, _ resolution: Resolution, wrappersMade: Int, since mark: CreationMark, ownedAs word: UInt?) throws(ContextError) -> Injecting? {
        if try publishIfNothingToInject(made, resolution, wrappersMade: wrappersMade, since: mark, ownedAs: word) {
            singletonMade(resolution)
            return nil
        }
        return beginInjecting(made, resolution, since: mark, ownedAs: word)
    }

    /// The last step of making the singleton, injected: published without the lock when it
    /// injected so and nobody asked for it or took an early reference meanwhile, else with its
    /// group. `false` when it was dropped instead, for its lookup to make it again: it may hold
    /// an object another lookup's failed injection dropped (`isTainted`).
    func finishCreating(_ resolution: Resolution, _ injecting: Injecting) throws(ContextError) -> Bool {
        if let word = injecting.word, publishInjectedWithoutLock(ownedAs: word, since: injecting.creationMark) {
            singletonMade(resolution)
            return true
        }
        guard try finishInjecting(resolution, injecting) else { return false }
        singletonMade(resolution)
        return true
    }

    /// Whether the singleton `resolution` began making at `creationMark` may hold an object that
    /// another lookup's failed injection dropped since: `resolution` received an early reference
    /// after that injection began (`failInjecting` notes it). It is then dropped and made again,
    /// never published holding the dropped object. Called with the lock held.
    @inline(__always)
    func isTainted(_ resolution: Resolution, since creationMark: CreationMark) -> Bool {
        resolution.droppedUnder > creationMark.sequence
    }

    /// A singleton whose object has nothing to inject (no `@Inject` field, no `didInject`) needs
    /// no injecting phase: nobody can see it early, so it is published at once, without the lock
    /// when its lookup claimed it so and nobody asked for it meanwhile, else in one round of the
    /// lock. `false` otherwise.
    ///
    /// Also while its group is injecting others (the common case: the singletons a handler's
    /// properties need, made during its injection), as long as no lookup of the group received
    /// an early reference since it began (`mark`, read before its closure ran): only an early
    /// reference could have given it an unfinished object to hold, and every one goes through
    /// `claim`, which stamps the group (`PublicationGroup.lastEarlyReference`) and counts it for
    /// the process (what the publication without the lock checks). Otherwise it waits for its
    /// group like any other.
    func publishIfNothingToInject(_ made: MadeValue, _ resolution: Resolution, wrappersMade: Int, since mark: CreationMark, ownedAs word: UInt?) throws(ContextError) -> Bool {
        let nothingToInject = InjectionPlan.unretained(of: made.dynamicType).with { plan in
            plan.isEmpty || (plan.isEmptyUnlessStripped && wrappersMade == 0)
        }
        guard nothingToInject else { return false }
        if let word, publishWithoutLock(made, ownedAs: word, since: mark) { return true }
        let lock = Coordinator.lock
        lock.lock()
        settleLocked()
        // Tainted: left to `finishCreating`, which drops it.
        guard resolution.group.isIdle || resolution.group.root.lastEarlyReference <= mark.sequence, !isClosed, !isTainted(resolution, since: mark) else {
            lock.unlock()
            return false
        }
        states[index].made = made
        let unkept = publishLocked(made)
        let woken = wakeWaiters()
        lock.broadcast()
        lock.unlock()
        withExtendedLifetime(unkept) {}
        for task in woken { task.resume() }
        return true
    }

    /// Publishes the singleton a lookup claimed without the lock (its owner's `word`), without
    /// the lock, if nobody asked for it meanwhile (a lookup that would have waited turned the
    /// owner into a locked one, and the exchange below fails), no lookup in the process received
    /// an early reference since `mark`, and no close is deciding or has decided what to dispose.
    /// `false` to publish it under the lock.
    ///
    /// The `publishing` window stores the object, its disposal order and its published value;
    /// whoever holds the lock and needs the slot waits for it to end. A close sets its
    /// context's `holdsPublications` before it looks at the slots, and the window checks it
    /// after it opened (both sequentially consistent): either the close sees the window (and
    /// waits, then disposes the singleton) or the window sees the close (and leaves it to the
    /// lock, which knows how to dispose what was made while closing).
    @inline(__always)
    private func publishWithoutLock(_ made: MadeValue, ownedAs word: UInt, since mark: CreationMark) -> Bool {
        guard openPublicationWindow(ownedAs: word, since: mark) else { return false }
        states[index].made = made
        closePublicationWindow(publishing: made)
        return true
    }

    /// `publishWithoutLock` for a singleton injected without the lock: its object was stored
    /// when its injection began.
    private func publishInjectedWithoutLock(ownedAs word: UInt, since mark: CreationMark) -> Bool {
        guard openPublicationWindow(ownedAs: word, since: mark) else { return false }
        closePublicationWindow(publishing: states[index].made!)
        return true
    }

    /// Opens the `publishing` window of a lock-free owner (`word`), if nobody asked for the
    /// singleton meanwhile, no early reference was taken since `mark` and no close holds
    /// publications; `false` (the word as it was) otherwise.
    @inline(__always)
    private func openPublicationWindow(ownedAs word: UInt, since mark: CreationMark) -> Bool {
        guard Coordinator.noEarlyReference(since: mark), !isClosed else { return false }
        guard records[index].owner.compareExchange(expected: word, desired: SlotOwner.publishing, ordering: .sequentiallyConsistent).exchanged else { return false }
        if unretainedContext.with({ $0.holdsPublications.load(ordering: .sequentiallyConsistent) || $0.isClosed }) {
            // Nobody changes the word during the window.
            records[index].owner.store(word, ordering: .releasing)
            return false
        }
        return true
    }

    /// Publishes `made`, the object stored in the slot, and closes the window: the word is free.
    @inline(__always)
    private func closePublicationWindow(publishing made: MadeValue) {
        states[index].madeOrder = Coordinator.nextSequence()
        records[index].published.store(made.published(in: unretainedContext.with { $0.tables.cells }, at: index), ordering: .releasing)
        records[index].owner.store(SlotOwner.free, ordering: .releasing)
    }

    /// Bookkeeping after the singleton was made and injected, its frame still pushed.
    @inline(__always)
    func singletonMade(_ resolution: Resolution) {
        records[index].edgesRecorded.store(true, ordering: .relaxed)
        if resolution.collectsStartup { unretainedContext.with { $0.noteStartup(index, resolution) } }
    }

    /// The singleton's making failed: its edges are voided (one making of a singleton runs at a
    /// time, so the edges from it recorded since it last failed are this making's alone; none
    /// once it was made), and the slot abandoned.
    func abandonFailedMaking(ownedAs word: UInt?) {
        if !records[index].edgesRecorded.load(ordering: .relaxed) { unretainedContext.with { $0.journal.voidEdges(from: index) } }
        abandon(ownedAs: word)
    }

    /// The singleton's closure failed: nothing is cached, waiters try again. `word`: the owner's
    /// word if it claimed the slot without the lock, which it then frees without the lock unless
    /// a lookup turned it into a locked owner meanwhile.
    func abandon(ownedAs word: UInt?) {
        if let word, records[index].owner.compareExchange(expected: word, desired: SlotOwner.free, ordering: .releasing).exchanged { return }
        var woken: [Resumption<Void>] = []
        Coordinator.lock.withLock {
            settleLocked()
            becomeIdleLocked()
            woken = wakeWaiters()
            Coordinator.lock.broadcast()
        }
        for task in woken { task.resume() }
    }

    /// Caches `made` for `resolution` while it is injected. `word`: the owner's word if
    /// `resolution` claimed the slot without the lock: it then injects without the lock too
    /// (the word gains `SlotOwner.injectingFlag`; a lookup that needs the slot meanwhile settles
    /// it into `injecting` and registers it in its group), unless a lookup turned it into a
    /// locked owner already. Under the lock otherwise: the word (if any) becomes `locked` here,
    /// and the phase `injecting` (there is no `making` to settle it into first).
    func beginInjecting(_ made: MadeValue, _ resolution: Resolution, since creationMark: CreationMark, ownedAs word: UInt?) -> Injecting {
        if let word {
            // Stored before the flag is set (release): whoever settles the word reads it.
            states[index].made = made
            let injecting = word | SlotOwner.injectingFlag
            if records[index].owner.compareExchange(expected: word, desired: injecting, ordering: .acquiringAndReleasing).exchanged {
                return Injecting(creationMark: creationMark, mark: Coordinator.nextSequence(), word: injecting)
            }
        }
        let shareable = made.isReference
        let mark = Coordinator.lock.withLock {
            let lockedHere = word.map { records[index].owner.compareExchange(expected: $0, desired: SlotOwner.locked, ordering: .acquiringAndReleasing).exchanged } ?? false
            if !lockedHere { settleLocked() }
            states[index].made = made
            states[index].phase = .injecting(owner: resolution, depth: resolution.depth, shareable: shareable)
            resolution.group.root.injectors.append(.init(resolution: resolution, depth: resolution.depth))
            return Coordinator.nextSequence()
        }
        return Injecting(creationMark: creationMark, mark: mark, word: nil)
    }

    /// Injecting the singleton failed: it is dropped, with what may hold it — what its lookup
    /// made since `mark`, and whatever another lookup of the group made that received an early
    /// reference since (a property cycle across lookups); the lookups that received one are
    /// noted (`Resolution.droppedUnder`), so that what they are still making is dropped and made
    /// again when it ends (`isTainted`) instead of published holding a dropped object. The
    /// objects are released after the lock.
    func failInjecting(_ resolution: Resolution, since mark: UInt64) {
        var garbage: [AnyObject] = []
        var late: [LateDisposal.Made] = []
        var woken: [Resumption<Void>] = []
        Coordinator.lock.withLock {
            // Injecting without the lock: registered in its group first, as under the lock.
            settleLocked()
            dropLocked(with: resolution, since: mark, &garbage, &woken, late: &late)
            Coordinator.lock.broadcast()
        }
        for task in woken { task.resume() }
        LateDisposal.dispose(late)
        withExtendedLifetime(garbage) {}
    }

    /// `failInjecting`'s state change, for a singleton whose injection `resolution` began at
    /// `mark`. Called with the lock held, after `settleLocked`.
    private func dropLocked(with resolution: Resolution, since mark: UInt64, _ garbage: inout [AnyObject], _ woken: inout [Resumption<Void>], late: inout [LateDisposal.Made]) {
        let group = resolution.group.root
        group.removeInjector(resolution, depth: resolution.depth)
        group.lastDrop = Coordinator.earlyReferenceCount
        let now = Coordinator.nextSequence()
        // The lookups that may hold a dropped object, each with when it may have received the
        // first one: what it made since (its pending singletons finished later) is dropped too.
        var holdsSince: [ObjectIdentifier: UInt64] = [ObjectIdentifier(resolution): mark]
        func marks(_ holder: Resolution, since sequence: UInt64) {
            holder.droppedUnder = now
            let id = ObjectIdentifier(holder)
            holdsSince[id] = min(holdsSince[id] ?? sequence, sequence)
        }
        for early in group.earlyReferences where early.sequence > mark {
            // Up to this lookup: what it runs for unwinds with its error, or caught it.
            for holder in early.holders {
                if holder === resolution { break }
                marks(holder, since: mark)
            }
        }
        var dropped: Set<ObjectIdentifier> = []
        if let made = states[index].made { dropped.insert(ObjectIdentifier(made.owner)) }
        dropLocked(into: &garbage, late: &late)
        woken += wakeWaiters()
        // Closed over early references: a pending singleton dropped here may have been handed out
        // early before `mark` (it was being injected then), and whoever received it holds it —
        // what they made since is dropped as well, and what they are still making is made again
        // (`isTainted`), or it would be published holding a dropped object. Until nothing more
        // is dropped.
        var kept = group.pending
        var earlier = group.earlyReferences.filter { $0.sequence <= mark }
        var more = true
        while more {
            more = false
            kept.removeAll { pending in
                guard let since = holdsSince[ObjectIdentifier(pending.maker)], pending.sequence > since else { return false }
                if let made = pending.context.states[pending.index].made { dropped.insert(ObjectIdentifier(made.owner)) }
                pending.slot.dropLocked(into: &garbage, late: &late)
                woken += pending.slot.wakeWaiters()
                garbage.append(pending.context)
                return true
            }
            earlier.removeAll { early in
                guard dropped.contains(early.object) else { return false }
                for holder in early.holders { marks(holder, since: early.sequence) }
                more = true
                return true
            }
        }
        group.pending = kept
        if group.injectors.isEmpty { group.publishAll(&garbage, &woken, late: &late) }
        woken += group.wakeSettleWaiters()
    }

    /// The singleton is made and injected: it waits for its group, which is published when
    /// its last injection ends. `false` when it was dropped instead, for its lookup to make it
    /// again: it may hold an object another lookup's failed injection dropped (`isTainted`), or
    /// its group held a singleton of a context closed meanwhile (`PublicationGroup.publishAll`).
    ///
    /// - Throws: `contextClosed` when this context was closed while it was being made: it is
    ///   not published, and it is disposed.
    func finishInjecting(_ resolution: Resolution, _ injecting: Injecting) throws(ContextError) -> Bool {
        if try finishAlone(resolution, since: injecting.creationMark) { return true }
        var garbage: [AnyObject] = []
        var woken: [Resumption<Void>] = []
        var late: [LateDisposal.Made] = []
        var mine: MadeValue?
        var tainted = false
        var droppedWithItsGroup = false
        Coordinator.lock.withLock {
            settleLocked()
            if isTainted(resolution, since: injecting.creationMark) {
                tainted = true
                dropLocked(with: resolution, since: injecting.mark, &garbage, &woken, late: &late)
                Coordinator.lock.broadcast()
                return
            }
            let group = resolution.group.root
            group.removeInjector(resolution, depth: resolution.depth)
            guard case let .injecting(_, _, shareable) = states[index].phase else { return }
            mine = states[index].made
            states[index].phase = .deferred(group: group, shareable: shareable)
            group.pending.append(.init(context: context, index: index, sequence: Coordinator.nextSequence(), maker: resolution))
            if group.injectors.isEmpty {
                droppedWithItsGroup = group.publishAll(&garbage, &woken, late: &late)
            } else {
                // Tasks waiting for a singleton of the group claim again, as the blocked threads
                // the broadcast below wakes do: one whose own group was merged into this one
                // (it is part of a property cycle) takes the object early now, and without this
                // it would wait for a publication that waits for its own injection.
                for pending in group.pending { woken += pending.slot.wakeWaiters() }
            }
            woken += group.wakeSettleWaiters()
            Coordinator.lock.broadcast()
        }
        for task in woken { task.resume() }
        let closedLate = late.contains { $0.owner === mine?.owner }
        mine = nil
        LateDisposal.dispose(late)
        withExtendedLifetime(garbage) {}
        if closedLate { throw context.closedError(looking: key) }
        // Dropped with a group that held a singleton of a context closed meanwhile: made again,
        // which meets that context closed.
        return !tainted && !droppedWithItsGroup
    }

    /// The common case of `finishInjecting`: the singleton is published at once, without the
    /// group's lists, when it can hold nothing unfinished — it is the only one its group is
    /// making and none waits to be published, or (the rule `publishIfNothingToInject` applies
    /// to a singleton with nothing to inject) no lookup of the group took an early reference
    /// since its making began: every way to an object of the group not published yet (one
    /// being injected, or one waiting for its group) goes through `claim`, which stamps the
    /// group. `false` otherwise.
    @inline(__always)
    private func finishAlone(_ resolution: Resolution, since creationMark: CreationMark) throws(ContextError) -> Bool {
        let lock = Coordinator.lock
        lock.lock()
        // Injecting without the lock (its publication without it refused): registered in its
        // group first, as under the lock.
        settleLocked()
        let group = resolution.group.root
        let alone = group.injectors.count == 1 && group.injectors[0].resolution === resolution
        guard alone ? group.pending.isEmpty : group.lastEarlyReference <= creationMark.sequence,
              !isClosed, states[index].asyncWaiters?.isEmpty ?? true, !isTainted(resolution, since: creationMark) else {
            lock.unlock()
            return false
        }
        if alone {
            group.injectors.removeAll(keepingCapacity: true)
        } else {
            group.removeInjector(resolution, depth: resolution.depth)
        }
        // The group is done: what it handed out early is published.
        if group.injectors.isEmpty, !group.earlyReferences.isEmpty { group.earlyReferences.removeAll() }
        let unkept = publishLocked(states[index].made!)
        let woken = group.wakeSettleWaiters()
        lock.broadcast()
        lock.unlock()
        for task in woken { task.resume() }
        withExtendedLifetime(unkept) {}
        return true
    }

    /// Publishes the singleton, whose value (`made`) is in place: lock-free lookups see it from
    /// now on. Called with the lock held. A weak singleton is kept weakly instead: the strong
    /// value it no longer keeps is returned, for the caller to release after the lock.
    @inline(__always)
    func publishLocked(_ made: MadeValue) -> MadeValue? {
        states[index].madeOrder = Coordinator.nextSequence()
        // Idle after the value: a lookup that claims the freed slot without the lock finds it made.
        defer { becomeIdleLocked() }
        if records[index].scope == .weak { return keepWeakly() }
        records[index].published.store(made.published(in: unretainedContext.with { $0.tables.cells }, at: index), ordering: .releasing)
        return nil
    }

    /// Forgets what was made and makes the slot claimable again, handing the object on for after
    /// the lock: to `late` when the context closed meanwhile (made while it was closing, the
    /// lookup that made it disposes it), else to `garbage`, to be released. Called with the lock
    /// held.
    func dropLocked(into garbage: inout [AnyObject], late: inout [LateDisposal.Made]) {
        // Taken before the word is freed: a claim without the lock may follow at once, and its
        // making writes `made` again.
        let made = states[index].made.take()?.owner
        becomeIdleLocked()
        guard let made else { return }
        if unretainedContext.with({ $0.isClosed }) {
            late.append(.init(owner: made, isWeak: records[index].scope == .weak))
        } else {
            garbage.append(made)
        }
    }

    /// Nobody is making the singleton any more: the phase says so, and the word is freed for a
    /// claim without the lock. The one way back to `idle`, so that the two never disagree.
    /// Called with the lock held.
    @inline(__always)
    func becomeIdleLocked() {
        states[index].phase = .idle
        records[index].owner.store(SlotOwner.free, ordering: .releasing)
    }

    /// Keeps the weak singleton weakly and hands back the strong value. Called with the lock
    /// held.
    @inline(never)
    func keepWeakly() -> MadeValue? {
        let made = states[index].made.take()
        // Allocated under the lock, but no user code runs: the old reference's object is gone
        // or held by someone else (a `WeakReference` owns nothing).
        states[index].weakObject = made.map { WeakReference($0.anyValue as AnyObject) }
        return made
    }
}
