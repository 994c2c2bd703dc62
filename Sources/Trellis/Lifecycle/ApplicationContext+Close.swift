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
        try ContextClosing(self).close()
    }

    /// Closes the context as ``close()`` does, and also disposes ``AsyncDisposable`` singletons
    /// (awaiting each, in the same order). Concurrent closers suspend until the disposals are
    /// done.
    ///
    /// - Throws: ``ContextError/disposalFailed(context:failures:)`` naming each key whose
    ///   `dispose()` threw.
    nonisolated(nonsending)
    public func close() async throws(ContextError) {
        if ContextClosing(self).closeIfNothingToDispose() { return }
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
    /// `timeout`; then this call returns, and that close reports what failed. A timeout of zero
    /// or less waits for nothing; a main-actor `dispose()` that blocks holds a caller on the main
    /// actor until it ends (Docs/RunningAService.md).
    ///
    /// - Throws: ``ContextError/disposalFailed(context:failures:)`` naming each key whose
    ///   `dispose()` threw, and each whose disposal was left running, with a
    ///   ``DisposalTimedOut`` (its description is the failure's `error`).
    nonisolated(nonsending)
    public func close(timeout: Duration) async throws(ContextError) {
        // Clamped: `Task.sleep` stops the program for a duration near `Int64.max` seconds.
        let sleep = min(timeout, .seconds(Int64(1) << 40))
        try await close(waitingAtMost: DisposalBound(timeout: timeout) { _ in try? await Task.sleep(for: sleep, clock: .continuous) })
    }

    /// The awaited close; `bound` bounds each disposal's wait.
    nonisolated(nonsending)
    func close(waitingAtMost bound: DisposalBound?) async throws(ContextError) {
        try await ContextClosing(self).close(waitingAtMost: bound)
    }

    /// Disposes what a context that will not be used made (as `close()` would) and closes it,
    /// ignoring what disposals throw: after a failed start (whose own failure is what the caller
    /// gets) and after a validation (its scratch context). `AsyncDisposable` objects, and those
    /// disposable only on the main actor, go to an unstructured task (in order, after the
    /// synchronous ones).
    func disposeWhatWasMade() {
        ContextClosing(self).disposeWhatWasMade()
    }
}
