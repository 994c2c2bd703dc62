/// One step of the creation state machine: what a lookup does about a slot (a singleton's
/// definition, or a lazy property's first read) now, decided with `Coordinator.lock` held by the
/// slot's `claim`.
enum SlotClaim<Made> {
    /// Made (or usable early): here it is.
    case made(Made)
    /// Nobody was making it: the caller makes it now; the slot says so.
    case claimed
    /// Looking further is an error (closed, a cycle, a synchronous wait for async work, …).
    case failed(ContextError)
    /// Someone else is making it: wait until they finish, then claim again.
    case wait
}

extension WaitTarget {
    /// Claims the slot for a synchronous lookup: the made object, or `nil` once the caller has
    /// claimed it (and must make it). Waits by blocking on `Coordinator.lock`'s condition.
    ///
    /// This and `acquireSuspending` are the only wait loops of the library: singletons, lazy
    /// properties and a lookup waiting for its publication group (`GroupSettlement`) alike go
    /// through them, and the two differ only in how they wait.
    @inline(__always)
    func acquireBlocking<Made>(_ resolution: Resolution, _ claim: () -> SlotClaim<Made>) throws(ContextError) -> Made? {
        let lock = Coordinator.lock
        lock.lock()
        var waited = false
        var startupWait: StartupWait?
        defer { startupWait?.end() }
        while true {
            if case let .settled(made) = try settle(claim()) { return made }
            if !waited, resolution.collectsStartup { startupWait = StartupWait(resolution) }
            resolution.waitingFor = self
            // A caller blocked on what this lookup makes may now be waiting, through it, for work
            // that has suspended or waits for the main actor (`CreationPhase.mayBeWaitedFor`
            // follows the waits): it decides again. Once per claim, and only from inside a
            // making (a frame of its own, or a lookup nested in or continuing another's), so
            // waiters do not wake each other in turn.
            if !waited, resolution.depth > 0 || resolution.parent != nil { lock.broadcast() }
            waited = true
            lock.wait()
            resolution.waitingFor = nil
        }
    }

    /// `acquireBlocking` for an async lookup: waits by suspending, never blocking a thread. A
    /// task cancelled while it waits stops waiting with `creationFailed` wrapping
    /// `CancellationError`.
    func acquireSuspending<Made>(_ resolution: Resolution, _ claim: () -> SlotClaim<Made>) async throws(ContextError) -> Made? {
        let lock = Coordinator.lock
        var startupWait: StartupWait?
        defer { startupWait?.end() }
        while true {
            lock.lock()
            if case let .settled(made) = try settle(claim()) { return made }
            if startupWait == nil, resolution.collectsStartup { startupWait = StartupWait(resolution) }
            let waiter = AsyncWaiter()
            add(waiter)
            resolution.waitingFor = self
            // From now on a synchronous caller must not block for what this lookup makes:
            // its owner is suspended. Those already blocked re-check.
            resolution.markSuspended()
            lock.unlock()
            await withTaskCancellationHandler {
                await waiter.suspend()
            } onCancel: {
                stopWaiting(waiter)
            }
            let cancelled = lock.withLock { () -> Bool in
                resolution.waitingFor = nil
                return waiter.wasCancelled
            }
            if cancelled {
                // A group's wait has no key: `GroupSettlement` catches its cancellation.
                let key = key ?? ""
                throw .creationFailed(key: key, path: resolution.path(appending: key), underlying: CancellationError())
            }
        }
    }

    /// What a claim loop does with `claim`'s answer: everything but a wait releases the lock and
    /// ends the loop (with the made object, `nil` for claimed, or the error).
    private enum Settlement<Made> {
        case settled(Made?)
        case wait
    }

    @inline(__always)
    private func settle<Made>(_ claimed: SlotClaim<Made>) throws(ContextError) -> Settlement<Made> {
        switch claimed {
        case let .made(made):
            Coordinator.lock.unlock()
            return .settled(made)
        case .claimed:
            Coordinator.lock.unlock()
            return .settled(nil)
        case let .failed(error):
            Coordinator.lock.unlock()
            throw error
        case .wait:
            return .wait
        }
    }

    /// The task of `waiter` was cancelled: it stops waiting.
    private func stopWaiting(_ waiter: AsyncWaiter) {
        let task = Coordinator.lock.withLock { () -> Resumption<Void>? in
            remove(waiter)
            return waiter.wake(cancelled: true)
        }
        task?.resume()
    }
}
