extension ApplicationContext {
    /// Closes the context: disposes every singleton it made that adopts ``Disposable``, each
    /// before what it depends on, then refuses every lookup.
    ///
    /// ```swift
    /// let request = try ApplicationContext(RequestFactory(), parent: app)
    /// defer { try? request.close() }
    /// ```
    /// Only singletons made by this context are disposed: not prototypes, not the parents'
    /// objects; closing a parent does not close its children. Every disposal is attempted even
    /// when some fail. Once `close` has begun, every lookup on the context, and through it from
    /// its children, throws ``ContextError/contextClosed(context:key:)``, and nothing more is made.
    /// Idempotent and safe from any number of threads and tasks at once: each object is disposed
    /// once, every caller returns after the disposals are done, and a `close()` from inside the
    /// closing (a `dispose`) returns at once. A context dropped without `close` disposes nothing.
    ///
    /// - Throws: ``ContextError/requiresAwait(key:path:)`` before disposing anything when a made
    ///   singleton is ``AsyncDisposable`` (use `try await close()`; the context stays open), and
    ///   when called from inside a task while an `await`ed `close()` is disposing (a task's
    ///   thread must not block for async work; a plain thread waits);
    ///   ``ContextError/disposalFailed(context:failures:)`` naming each key whose `dispose()`
    ///   threw (a second `close()` then returns without error).
    public func close() throws(ContextError) {
        if ClosingScope.contains(self) { return }
        let lock = Coordinator.lock
        var made: [DisposalOrder.Made] = []
        while true {
            lock.lock()
            switch phase {
            case .closed:
                lock.unlock()
                return
            case .closingMayAwait:
                // An async `close()` is disposing. Waiting for an `AsyncDisposable`'s disposal,
                // or blocking a task's thread for async work (possibly the thread it needs), is
                // refused; a plain thread waits for synchronous disposals like any other closer.
                let snapshot = madeSingletons()
                lock.unlock()
                if let refusal = synchronousCloseRefusal(for: Self.disposables(snapshot)) { throw refusal }
                if Resolution.isInTask { throw Self.closeRequiresAwait(name) }
                lock.lock()
                while phase != .closed { lock.wait() }
                lock.unlock()
                continue
            case .closing:
                lock.wait()
                lock.unlock()
                continue
            case .open:
                break
            }
            let snapshot = madeSingletons()
            lock.unlock()
            // The casts run without the lock; a singleton published meanwhile means looking again.
            let disposables = Self.disposables(snapshot)
            if let refusal = synchronousCloseRefusal(for: disposables) { throw refusal }
            let began = lock.withLock { () -> Bool in
                guard phase == .open, madeCount() == snapshot.count else { return false }
                enter(.closing)
                return true
            }
            if began {
                made = disposables
                break
            }
        }
        // Checked before anything was disposed: no async or main-actor disposal is left.
        let failures = disposeSynchronously(DisposalOrder.of(made, edges: journal.edges, definitions: count))
        finishClosing()
        if !failures.isEmpty { throw .disposalFailed(context: name, failures: failures) }
    }

    /// Closes the context as ``close()`` does, and also disposes ``AsyncDisposable`` singletons
    /// (awaiting each, in the same order). Concurrent closers suspend until the disposals are
    /// done.
    ///
    /// - Throws: ``ContextError/disposalFailed(context:failures:)`` naming each key whose
    ///   `dispose()` threw.
    nonisolated(nonsending)
    public func close() async throws(ContextError) {
        try await close(waitingAtMost: nil)
    }

    /// Closes the context as the awaited ``close()-507l8`` does, but waits at most `timeout` for each
    /// disposal: one still running then is left running and reported, and the others are
    /// disposed in order without waiting for it.
    ///
    /// ```swift
    /// try await app.close(timeout: .seconds(5))     // a hanging dispose() cannot hold shutdown
    /// ```
    /// When the call returns the context is closed (every lookup throws
    /// ``ContextError/contextClosed(context:key:)``), even if a disposal it left is still
    /// running. Each disposal runs in a task of its own, a synchronous `dispose()` on a thread
    /// of its own, so one that blocks is bounded too and holds no thread of the cooperative
    /// pool. A `close` already under way (started by another caller) is waited for at most
    /// `timeout`; then this call returns, and that close reports what failed.
    ///
    /// - Throws: ``ContextError/disposalFailed(context:failures:)`` naming each key whose
    ///   `dispose()` threw, and each whose disposal was left running, with a
    ///   ``DisposalTimedOut`` (its description is the failure's `error`).
    nonisolated(nonsending)
    public func close(timeout: Duration) async throws(ContextError) {
        try await close(waitingAtMost: DisposalBound(timeout: timeout) { _ in try? await Task.sleep(for: timeout, clock: .continuous) })
    }

    /// The awaited close; `bound` bounds each disposal's wait.
    nonisolated(nonsending)
    func close(waitingAtMost bound: DisposalBound?) async throws(ContextError) {
        if ClosingScope.contains(self) { return }
        let lock = Coordinator.lock
        lock.lock()
        switch phase {
        case .closed:
            lock.unlock()
            return
        case .closing, .closingMayAwait:
            let waiter = AsyncWaiter()
            closeWaiters.append(waiter)
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
            enter(.closingMayAwait)
        }
        let made = madeSingletons()
        lock.unlock()
        let ordered = DisposalOrder.of(Self.disposables(made), edges: journal.edges, definitions: count)
        let failures: [ContextError.DisposalFailure]
        if bound != nil || ordered.contains(where: { $0.disposal.mustBeAwaited }) {
            failures = await ClosingScope.closing(self) {
                await Self.dispose(ordered, keys: table.keys, waitingAtMost: bound)
            }
        } else {
            // The common case, without the task-local's async form: its operation would run off
            // the caller's actor (a hop there and back for a screen closed on the main actor).
            failures = disposeSynchronously(ordered)
        }
        finishClosing()
        if !failures.isEmpty { throw .disposalFailed(context: name, failures: failures) }
    }

    /// The refusal of a synchronous `close()` that would have to await `key`'s disposal.
    static func closeRequiresAwait(_ key: String) -> ContextError {
        .requiresAwait(key: key, path: ["close()", key])
    }

    /// Why a synchronous `close()` cannot dispose every one of `made`, if it cannot: one is
    /// `AsyncDisposable`, or disposable only on the main actor, which the caller is not on. The
    /// casts run without the lock, before anything is disposed.
    private func synchronousCloseRefusal(for made: [DisposalOrder.Made]) -> ContextError? {
        for singleton in made {
            switch singleton.disposal {
            case .asynchronous: return Self.closeRequiresAwait(table.keys[singleton.index])
            case .onMainActor: return .requiresAwait(key: table.keys[singleton.index], path: [ContextError.closeOffMainActor, table.keys[singleton.index]])
            case .synchronous, .none: continue
            }
        }
        return nil
    }

    /// Disposes `ordered` (a disposal order) synchronously, as the context's closing: a `close()`
    /// from inside a `dispose` returns at once. Only `Disposable`s usable here are disposed: the
    /// callers have refused or set aside every other kind. Returns what failed.
    private func disposeSynchronously(_ ordered: [DisposalOrder.Made]) -> [ContextError.DisposalFailure] {
        // Nothing to dispose (a request whose objects dispose nothing): no closing scope to enter.
        if ordered.isEmpty { return [] }
        return ClosingScope.closing(self) {
            ordered.compactMap { singleton -> ContextError.DisposalFailure? in
                guard case let .synchronous(disposable) = singleton.disposal else { return nil }
                do {
                    try disposable.dispose()
                    return nil
                } catch {
                    return .init(key: table.keys[singleton.index], error: "\(error)")
                }
            }
        }
    }

    /// Disposes `made` in order, awaiting async disposals and hopping to the main actor for
    /// those disposable only there; returns what failed. With a `bound`, each disposal runs in
    /// a task of its own (a synchronous one on a thread of its own) and is left running (and
    /// reported as ``DisposalTimedOut``) if it has not ended when the bound's wait does.
    nonisolated(nonsending)
    private static func dispose(_ made: [DisposalOrder.Made], keys: ContiguousArray<String>, waitingAtMost bound: DisposalBound? = nil) async -> [ContextError.DisposalFailure] {
        var failures: [ContextError.DisposalFailure] = []
        for singleton in made {
            if let bound {
                let key = keys[singleton.index]
                // The disposal task is the only code the context lets use the object from now on:
                // the context is closed, and lookups can no longer hand it out.
                let deadline: @Sendable () async -> Void = { await bound.wait(key) }
                let ending: BoundedDisposal.Ending
                if case let .synchronous(disposable) = singleton.disposal {
                    let handOver = UncheckedSendable(disposable)
                    ending = await BoundedDisposal.run(until: deadline, blocking: { try handOver.value.dispose() })
                } else {
                    let handOver = UncheckedSendable((singleton.disposal, singleton.box.anyValue))
                    ending = await BoundedDisposal.run(until: deadline, { try await handOver.value.0.perform(on: handOver.value.1) })
                }
                switch ending {
                case .finished(failure: nil): break
                case let .finished(failure?): failures.append(.init(key: key, error: failure))
                case .timedOut: failures.append(.init(key: key, error: "\(DisposalTimedOut(key: key, timeout: bound.timeout))"))
                }
                continue
            }
            do {
                try await singleton.disposal.perform(on: singleton.box.anyValue)
            } catch {
                failures.append(.init(key: keys[singleton.index], error: "\(error)"))
            }
        }
        return failures
    }

    /// The singletons of `made` that are disposed at all, each with its `Disposal`: the one
    /// classification of a close (casts, so never under the lock). An object whose class adopts
    /// neither disposal protocol is left out without a cast (`Disposal.isNever`).
    private static func disposables(_ made: [DisposalOrder.Made]) -> [DisposalOrder.Made] {
        var disposables: [DisposalOrder.Made] = []
        // By index, the type read from the box: a request's objects, none of them disposable,
        // are then skipped without copying an entry or a value (a retain and release each).
        for position in made.indices where !Disposal.isNever(type: made[position].box.dynamicType) {
            var singleton = made[position]
            singleton.disposal = Disposal(of: singleton.box.anyValue)
            if case .none = singleton.disposal { continue }
            disposables.append(singleton)
        }
        return disposables
    }

    /// How many singletons this context has made (published). Called with the lock held.
    private func madeCount() -> Int {
        (0..<count).reduce(0) { $0 + (isMadeSingleton($1) ? 1 : 0) }
    }

    /// Whether definition `index` is a singleton this context has made (and keeps). Called with
    /// the lock held.
    @inline(__always)
    private func isMadeSingleton(_ index: Int) -> Bool {
        records[index].scope != .prototype && records[index].published.load(ordering: .relaxed) != nil && states[index].box != nil
    }

    /// Every singleton this context made, with when it was made. Called with the lock held.
    private func madeSingletons() -> [DisposalOrder.Made] {
        // Reserved at the first one: growing one by one costs a context made per request an
        // allocation per doubling, and a context that made nothing allocates nothing.
        var made: [DisposalOrder.Made] = []
        for index in 0..<count where isMadeSingleton(index) {
            if made.isEmpty { made.reserveCapacity(count - index) }
            made.append(DisposalOrder.Made(index: index, box: states[index].box!, madeOrder: states[index].madeOrder))
        }
        return made
    }

    private func finishClosing() {
        let woken = Coordinator.lock.withLock { () -> [Resumption<Void>] in
            enter(.closed)
            Coordinator.lock.broadcast()
            defer { closeWaiters = [] }
            return closeWaiters.compactMap { $0.wake() }
        }
        for task in woken { task.resume() }
    }

    /// Disposes what a context that will not be used made (as `close()` would) and closes it,
    /// ignoring what disposals throw: after a failed start (whose own failure is what the caller
    /// gets) and after a validation (its scratch context). `AsyncDisposable` objects, and those
    /// disposable only on the main actor, go to an unstructured task (in order, after the
    /// synchronous ones).
    func disposeWhatWasMade() {
        let made = Coordinator.lock.withLock { () -> [DisposalOrder.Made] in
            enter(.closing)
            return madeSingletons()
        }
        var later: [DisposalOrder.Made] = []
        for singleton in DisposalOrder.of(Self.disposables(made), edges: journal.edges, definitions: count) {
            switch singleton.disposal {
            case .asynchronous, .onMainActor: later.append(singleton)
            case let .synchronous(disposable): try? disposable.dispose()
            case .none: break
            }
        }
        finishClosing()
        if !later.isEmpty {
            let handOver = UncheckedSendable(later)
            Task { _ = await Self.dispose(handOver.value, keys: self.table.keys) }
        }
    }

    /// `disposeWhatWasMade` for an async start or validation: every disposal is awaited.
    nonisolated(nonsending)
    func disposeWhatWasMadeAsync() async {
        _ = try? await close()
    }
}
