/// How a context closes: the one place that decides what to dispose, in which order, and when
/// the context counts as closed. `ApplicationContext`'s `close` forms, and the clean-up after a
/// failed start or a validation, are this type's entry points (Docs/DESIGN.md, "The path of a
/// close").
///
/// A value made per close: it holds the context only while the close runs.
struct ContextClosing {
    let context: ApplicationContext

    init(_ context: ApplicationContext) { self.context = context }

    /// The synchronous close (`ApplicationContext.close()`).
    func close() throws(ContextError) {
        if ClosingScope.contains(context) { return }
        let lock = Coordinator.lock
        var made: [DisposalOrder.Made] = []
        while true {
            lock.lock()
            switch context.phase {
            case .closed:
                lock.unlock()
                return
            case .closingMayAwait:
                // An async `close()` is disposing. Waiting for an `AsyncDisposable`'s disposal,
                // or blocking a task's thread for async work (possibly the thread it needs), is
                // refused; a plain thread waits for synchronous disposals like any other closer.
                let made = madeSingletons()
                lock.unlock()
                let snapshot = Self.disposables(made)
                // Refused as a close that is under way: the singleton is being disposed, and the
                // context is closing (not "nothing was disposed").
                if case let .requiresAwait(key, _)? = synchronousCloseRefusal(for: snapshot) {
                    throw .requiresAwait(key: key, path: [ContextError.closeUnderWay, key])
                }
                if Resolution.isInTask {
                    let key = snapshot.first.map { context.key(at: $0.index) } ?? context.name
                    throw .requiresAwait(key: key, path: [ContextError.closeUnderWay, key])
                }
                lock.lock()
                while context.phase != .closed { lock.wait() }
                lock.unlock()
                continue
            case .closing:
                lock.wait()
                lock.unlock()
                continue
            case .open:
                break
            }
            // One look at the made singletons: nothing to dispose closes the context here.
            var published = 0
            let snapshot = holdingPublications { () -> [DisposalOrder.Made] in
                let made = madeSingletons(counting: &published)
                if made.isEmpty { enterClosedLocked() }
                return made
            }
            lock.unlock()
            if snapshot.isEmpty { return }
            // The casts run without the lock; a singleton published meanwhile means looking again.
            let disposables = Self.disposables(snapshot)
            if let refusal = synchronousCloseRefusal(for: disposables) { throw refusal }
            let began = lock.withLock { () -> Bool in
                holdingPublications {
                    guard context.phase == .open, publishedCount() == published else { return false }
                    context.enter(.closing)
                    return true
                }
            }
            if began {
                made = disposables
                break
            }
        }
        // Checked before anything was disposed: no async or main-actor disposal is left.
        let failures = disposeSynchronously(DisposalOrder.of(made, edges: context.journal.edges, definitions: context.count))
        finishClosing()
        if !failures.isEmpty { throw .disposalFailed(context: context.name, failures: failures) }
    }

    /// The first step of an async close, which needs no await: a context closed already (or
    /// closing itself from one of its disposals), or open with nothing to dispose, is closed
    /// here (`true`); `false` leaves the rest to `close(waitingAtMost:)`. A request context
    /// whose objects dispose nothing is closed so without the async close's task frames.
    func closeIfNothingToDispose() -> Bool {
        if ClosingScope.contains(context) { return true }
        let lock = Coordinator.lock
        lock.lock()
        defer { lock.unlock() }
        switch context.phase {
        case .closed: return true
        case .closing, .closingMayAwait: return false
        case .open: return holdingPublications { closeIfNothingToDisposeLocked() }
        }
    }

    /// The awaited close; `bound` bounds each disposal's wait.
    nonisolated(nonsending)
    func close(waitingAtMost bound: DisposalBound?) async throws(ContextError) {
        if ClosingScope.contains(context) { return }
        let lock = Coordinator.lock
        lock.lock()
        switch context.phase {
        case .closed:
            lock.unlock()
            return
        case .closing, .closingMayAwait:
            let waiter = AsyncWaiter()
            context.withLockedState { $0.closeWaiters.append(waiter) }
            lock.unlock()
            guard let bound else {
                await waiter.suspend()
                return
            }
            // Bounded too: the close under way may be an unbounded one waiting for a disposal
            // that hangs. The wait is watched from a task of its own, which the close under
            // way ends whenever it finishes.
            let watch = BoundedDisposal.Watch()
            Task {
                await waiter.suspend()
                watch.end(.finished(failure: nil))
            }
            _ = await BoundedDisposal.wait(for: watch) { await bound.wait(nil) }
            return
        case .open:
            break
        }
        let made = holdingPublications { () -> [DisposalOrder.Made] in
            let made = madeSingletons()
            if made.isEmpty { enterClosedLocked() } else { context.enter(.closingMayAwait) }
            return made
        }
        lock.unlock()
        if made.isEmpty { return }
        let ordered = DisposalOrder.of(Self.disposables(made), edges: context.journal.edges, definitions: context.count)
        let failures: [ContextError.DisposalFailure]
        // A cancelled closer's disposals run in a task of their own, as awaited ones do: a close
        // runs to its end, and no `dispose()` sees the closer's cancellation.
        if bound != nil || Task.isCancelled || Self.mustAwaitADisposal(of: ordered) {
            let scope = ClosingScope.number(of: context), keys = context.configuration.table.keys
            failures = await ClosingScope.closing(scope) {
                if let bound { return await Self.dispose(ordered, keys: keys, waitingAtMost: (bound, scope)) }
                // In a task of its own (which inherits the scope), so that a cancelled closer does
                // not cancel the disposals: a close runs to its end. (Bounded, each disposal runs
                // in a task of its own already.)
                let handOver = UncheckedSendable(ordered)
                return await Task { await Self.dispose(handOver.value, keys: keys, scope: scope) }.value
            }
        } else {
            // The common case, without the task-local's async form: its operation would run off
            // the caller's actor (a hop there and back for a screen closed on the main actor).
            // Nor its synchronous form: a push costs this close a twentieth of a request (a lock
            // and an allocation in the task), for the rare task a synchronous `dispose()` starts
            // that closes the context again (its close waits for this one, as any caller's).
            failures = disposeSynchronously(ordered)
        }
        finishClosing()
        if !failures.isEmpty { throw .disposalFailed(context: context.name, failures: failures) }
    }

    /// Disposes what a context that will not be used made, ignoring failures, and closes it
    /// (`ApplicationContext.disposeWhatWasMade()`).
    func disposeWhatWasMade() {
        let made = Coordinator.lock.withLock { () -> [DisposalOrder.Made]? in
            // Closed, or closing, already: a closure or a `didInject` of the start (or another
            // thread) closed the context, and that close disposes what was made, once.
            guard context.phase == .open else { return nil }
            return holdingPublications {
                context.enter(.closing)
                return madeSingletons()
            }
        }
        guard let made else { return }
        // In disposal order: here until the first that cannot be disposed here (an
        // `AsyncDisposable`, or a main-actor one off the main actor), which goes to a task with
        // everything after it, so that no singleton is disposed before one that depends on it.
        var later: [DisposalOrder.Made] = []
        var here = DisposableHere()
        let ordered = DisposalOrder.of(Self.disposables(made), edges: context.journal.edges, definitions: context.count)
        if !ordered.isEmpty {
            // In the closing scope, as a close's disposals: a `close()` of the context from
            // inside a `dispose()` returns at once instead of waiting for this one.
            ClosingScope.closing(ClosingScope.number(of: context)) {
                for singleton in ordered {
                    if !later.isEmpty || !here.canDispose(singleton) {
                        later.append(singleton)
                    } else {
                        _ = try? Self.disposeHere(singleton)
                    }
                }
            }
        }
        finishClosing()
        if !later.isEmpty {
            let handOver = UncheckedSendable(later)
            let keys = context.configuration.table.keys, scope = ClosingScope.number(of: context)
            Task { _ = await Self.dispose(handOver.value, keys: keys, scope: scope) }
        }
    }

    /// The refusal of a synchronous `close()` that would have to await `key`'s disposal.
    static func closeRequiresAwait(_ key: String) -> ContextError {
        .requiresAwait(key: key, path: ["close()", key])
    }

    /// Why a synchronous `close()` cannot dispose every one of `made`, if it cannot: one is
    /// `AsyncDisposable`, or disposable only on the main actor, which the caller is not on. The
    /// casts run without the lock, before anything is disposed.
    private func synchronousCloseRefusal(for made: [DisposalOrder.Made]) -> ContextError? {
        guard let position = Self.firstDisposalToAwait(in: made) else { return nil }
        let key = context.key(at: made[position].index)
        if case .onMainActor(isAsync: false) = made[position].disposal { return .requiresAwait(key: key, path: [ContextError.closeOffMainActor, key]) }
        return Self.closeRequiresAwait(key)
    }

    /// Whether an awaited close must await one of `made`'s disposals (or hop for it).
    private static func mustAwaitADisposal(of made: [DisposalOrder.Made]) -> Bool {
        firstDisposalToAwait(in: made) != nil
    }

    /// The position of the first of `made` whose disposal the caller cannot run synchronously
    /// where it is: an async one, or one isolated to the main actor that the caller is not on.
    private static func firstDisposalToAwait(in made: [DisposalOrder.Made]) -> Int? {
        // By index, reading each disposal in place: a `for … in` copied every entry (its value
        // and its disposal, retains and releases each) to read one tag.
        var here = DisposableHere()
        return made.indices.first { made[$0].disposal.mustBeAwaited && !here.canDispose(made[$0]) }
    }

    /// Which disposals the caller can run synchronously where it is: one usable on any actor,
    /// and one isolated to the main actor when the caller is on it (asked once, at the first,
    /// by its cast, which succeeds only there).
    private struct DisposableHere {
        private var isOnMainActor: Bool?

        mutating func canDispose(_ made: DisposalOrder.Made) -> Bool {
            switch made.disposal {
            case .none, .synchronous, .unreachable: return true
            case .asynchronous, .onMainActor(isAsync: true): return false
            case .onMainActor(isAsync: false):
                if let isOnMainActor { return isOnMainActor }
                let answer = Disposal.usableHere(made.value.anyValue) != nil
                isOnMainActor = answer
                return answer
            }
        }
    }

    /// Disposes `made` synchronously, where the caller is: `canDispose` said it can.
    ///
    /// - Throws: what `dispose()` throws, or ``ConformanceIsolated`` for a conformance the
    ///   context cannot reach.
    private static func disposeHere(_ made: DisposalOrder.Made) throws {
        switch made.disposal {
        case let .synchronous(disposable): try disposable.dispose()
        case .onMainActor(isAsync: false):
            let value = made.value.anyValue
            guard let disposable = Disposal.usableHere(value) else { throw Disposal.unreachable(value) }
            try disposable.dispose()
        case .unreachable: throw Disposal.unreachable(made.value.anyValue)
        case .none, .asynchronous, .onMainActor(isAsync: true): break
        }
    }

    /// Disposes `ordered` (a disposal order) synchronously, as the context's closing: a `close()`
    /// from inside a `dispose` returns at once. Only disposals usable here are run (the callers
    /// have refused or set aside every other kind); one the context cannot reach is reported.
    /// Returns what failed.
    private func disposeSynchronously(_ ordered: [DisposalOrder.Made]) -> [ContextError.DisposalFailure] {
        // Nothing to dispose (a request whose objects dispose nothing): no closing scope to enter.
        if ordered.isEmpty { return [] }
        return ClosingScope.closing(ClosingScope.number(of: context)) {
            // By index, and an array of failures only when one fails: `compactMap` copied each
            // entry and made an array for every close.
            var failures: [ContextError.DisposalFailure] = []
            for position in ordered.indices {
                do {
                    // The common disposal inline; the others (isolated conformances) out of line.
                    if case let .synchronous(disposable) = ordered[position].disposal {
                        try disposable.dispose()
                    } else {
                        try Self.disposeHere(ordered[position])
                    }
                } catch {
                    failures.append(.init(key: context.key(at: ordered[position].index), error: "\(error)"))
                }
            }
            return failures
        }
    }

    /// Disposes `made` in order, awaiting async disposals and hopping to the main actor for
    /// those disposable only there; returns what failed. With a `bound`, each disposal runs in
    /// a task of its own (a synchronous one on a thread of its own) and is left running (and
    /// reported as ``DisposalTimedOut``) if it has not ended when the bound's wait does.
    nonisolated(nonsending)
    private static func dispose(_ made: [DisposalOrder.Made], keys: ContiguousArray<String>, scope: UInt64? = nil, waitingAtMost bounded: (bound: DisposalBound, scope: UInt64)? = nil) async -> [ContextError.DisposalFailure] {
        var failures: [ContextError.DisposalFailure] = []
        for singleton in made {
            if let (bound, scope) = bounded {
                let key = keys[singleton.index]
                // The disposal task is the only code the context lets use the object from now on:
                // the context is closed, and lookups can no longer hand it out.
                let deadline: @Sendable () async -> Void = { await bound.wait(key) }
                let ending: BoundedDisposal.Ending
                if case let .synchronous(disposable) = singleton.disposal {
                    let handOver = UncheckedSendable(disposable)
                    // On its thread, in the closing scope the close gives its synchronous
                    // disposals: a `close()` of the context from inside returns at once.
                    ending = await BoundedDisposal.run(until: deadline, blocking: {
                        try ClosingScope.closing(scope) { Result { try handOver.value.dispose() } }.get()
                    })
                } else {
                    let handOver = UncheckedSendable((singleton.disposal, singleton.value.anyValue))
                    ending = await BoundedDisposal.run(until: deadline, { try await handOver.value.0.perform(on: handOver.value.1, scope: scope) })
                }
                switch ending {
                case .finished(failure: nil): break
                case let .finished(failure?): failures.append(.init(key: key, error: failure))
                case .timedOut: failures.append(.init(key: key, error: "\(DisposalTimedOut(key: key, timeout: bound.timeout))"))
                }
                continue
            }
            do {
                try await singleton.disposal.perform(on: singleton.value.anyValue, scope: scope)
            } catch {
                failures.append(.init(key: keys[singleton.index], error: "\(error)"))
            }
        }
        return failures
    }

    /// The singletons of `made` that are disposed at all, each with its `Disposal`: the one
    /// classification of a close (casts, so never under the lock). `made` holds no class
    /// instance that its plan says is never disposed (`madeSingletons` left those out); a plainly
    /// `Disposable` class is classified by its plan's disposer, without a cast to the protocol.
    private static func disposables(_ made: consuming [DisposalOrder.Made]) -> [DisposalOrder.Made] {
        var made = made
        // Classified in place, by index: an entry copied out and appended to a new array cost a
        // copy of its value and its disposal (retains and releases) and an array per close.
        for position in made.indices {
            made[position].disposal = Disposal(of: made[position].value)
        }
        made.removeAll { if case .none = $0.disposal { true } else { false } }
        return made
    }

    /// Closes the open context at once when the types alone say that nothing it made is
    /// disposable (the common request scope: one round of the lock, no snapshot, no cast);
    /// `false`, leaving it open, when a made singleton may be. Called with the lock held: no user
    /// code runs (each class's plan was looked up when its object was made).
    private func closeIfNothingToDisposeLocked() -> Bool {
        for index in 0..<context.count where mayDispose(index) { return false }
        enterClosedLocked()
        return true
    }

    /// Closes the context, which has nothing to dispose, and wakes the closers waiting for it.
    /// Called with the lock held.
    private func enterClosedLocked() {
        context.enter(.closed)
        Coordinator.lock.broadcast()
    }

    /// Whether definition `index` is a singleton this context made that may have to be disposed:
    /// not a class instance, struct or enum whose type adopts neither disposal protocol. A class
    /// type's object (held by its own reference) answers by its isa's plan, read where the object
    /// is published, without copying it out of its state (a retain and a release per singleton);
    /// a struct or enum by its declared type's plan; a value of an existential type is left to
    /// `Disposal`. Called with the lock held: no user code runs (each type's plan was looked up
    /// when its object was made).
    private func mayDispose(_ index: Int) -> Bool {
        isMadeSingleton(index) && mayBeDisposable(index)
    }

    /// `mayDispose` for a singleton known to be made.
    @inline(__always)
    private func mayBeDisposable(_ index: Int) -> Bool {
        guard context.records[index].isClassType else {
            // A struct or an enum is of its declared type: answered by that type's plan, without
            // copying the value out to ask for its dynamic type (a box for a large one). A value
            // declared as an existential holds any type, and is classified by a cast.
            let declared = context.records[index].objectType
            return !Runtime.isStructOrEnum(declared) || !Disposal.isNever(type: declared)
        }
        guard let published = context.records[index].published.load(ordering: .acquiring) else { return true }
        return !Disposal.isNever(type: published.withObject { type(of: $0) })
    }

    /// Runs `body`, which decides with the lock held what this close disposes, while no
    /// singleton of the context is published without the lock (`SlotOwner`): a publication
    /// under way is waited for, a later one sees `holdsPublications` or the context closed and
    /// leaves the singleton to the lock. Called with the lock held.
    private func holdingPublications<R>(_ body: () -> R) -> R {
        context.holdsPublications.store(true, ordering: .sequentiallyConsistent)
        defer { context.holdsPublications.store(false, ordering: .sequentiallyConsistent) }
        for index in 0..<context.count { SingletonSlot(context, index).waitForPublicationLocked() }
        return body()
    }

    /// How many singletons this context has published, which needs no type's plan: while the
    /// context is open the count only grows, so a count equal to the one `madeSingletons`
    /// gave means nothing was published since. Called with the lock held.
    private func publishedCount() -> Int {
        (0..<context.count).reduce(0) { $0 + (isMadeSingleton($1) ? 1 : 0) }
    }

    /// Whether definition `index` is a singleton this context has made (and keeps). Called with
    /// the lock held.
    @inline(__always)
    private func isMadeSingleton(_ index: Int) -> Bool {
        context.records[index].scope != .prototype && context.records[index].published.load(ordering: .acquiring) != nil && context.states[index].made != nil
    }

    /// Every singleton this context made that may have to be disposed, with when it was made:
    /// one the plan of its class says is never disposed is left out here, under the lock, rather
    /// than copied and classified (a retain and a release, and an entry, per singleton); and, in
    /// `published`, how many singletons it has published in all (`publishedCount`). Called with
    /// the lock held.
    private func madeSingletons(counting published: inout Int) -> [DisposalOrder.Made] {
        var made: [DisposalOrder.Made] = []
        published = 0
        for index in 0..<context.count where isMadeSingleton(index) {
            published += 1
            guard mayBeDisposable(index) else { continue }
            // Reserved at the first one: a context that made nothing to dispose allocates nothing.
            if made.isEmpty { made.reserveCapacity(context.count - index) }
            made.append(DisposalOrder.Made(index: index, value: context.states[index].made!, madeOrder: context.states[index].madeOrder))
        }
        return made
    }

    /// `madeSingletons(counting:)` without the count.
    private func madeSingletons() -> [DisposalOrder.Made] {
        var published = 0
        return madeSingletons(counting: &published)
    }

    private func finishClosing() {
        let woken = Coordinator.lock.withLock { () -> [Resumption<Void>] in
            context.enter(.closed)
            Coordinator.lock.broadcast()
            defer { context.lockedStorage?.closeWaiters = [] }
            return context.lockedStorage?.closeWaiters.compactMap { $0.wake() } ?? []
        }
        for task in woken { task.resume() }
    }
}
