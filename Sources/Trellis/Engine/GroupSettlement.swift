/// The end of a lookup called from user code whose object is not a published singleton (a
/// prototype, a weak singleton): when a property cycle with another lookup merged their
/// publication groups, what it made may hold an object of the group that other lookup is still
/// injecting, so it waits for the group's injections to end before handing its object out, as a
/// singleton's lookup waits for its publication (`SingletonSlot.waitsForItsGroup`).
enum GroupSettlement {
    /// The mark a lookup takes as it begins making its object: the count of early references
    /// handed out so far.
    @inline(__always)
    static var mark: UInt64 { Coordinator.earlyReferenceCount }

    /// Whether the lookup `resolution` runs, which took `mark` and is about to return, must
    /// first look at its group: an early reference was handed out somewhere since (the only way
    /// its group can have been merged with another's), and it was called from user code.
    @inline(__always)
    static func mustSettle(_ resolution: Resolution, since mark: UInt64) -> Bool {
        Coordinator.earlyReferenceCount != mark && resolution.depth == 0 && resolution.isCalledFromUserCode
    }

    /// What a blocking lookup does with its object once it looked at its group (`settle`).
    enum Outcome {
        /// Hands it out: the group injects nothing, or waiting would close a cycle.
        case keep
        /// Makes it again: what it may hold was dropped.
        case makeAgain
        /// Throws `requiresAwait`: the group waits for work that has suspended (or for the main
        /// actor), which a blocking caller must not wait for, and its object may hold what that
        /// work has not finished, or will drop.
        case refuse
    }

    /// Waits, blocking, until the group of `resolution` injects nothing; stops at once where
    /// waiting would close a cycle (a nested lookup whose outer lookup the group waits for:
    /// `keep`) or would block a caller that must not block (`refuse`, as `SingletonSlot.claim`
    /// refuses such a wait); `makeAgain` if an injection of its group failed since the lookup
    /// took `mark` and dropped what the group made, which the object may hold (a singleton's
    /// lookup makes it again the same way, `SingletonSlot.publishedWithItsGroup`).
    @inline(never)
    static func settle(_ resolution: Resolution, since mark: UInt64) -> Outcome {
        let lock = Coordinator.lock
        lock.lock()
        defer { lock.unlock() }
        while let phase = unsettled(resolution), Coordinator.cycle(through: phase, to: resolution) == nil {
            guard phase.mayBeWaitedFor(synchronously: true) else { return .refuse }
            // Seen by the wait-for graph, so that a lookup whose wait would close a cycle
            // through this one wakes it (by the broadcast of its wait) rather than fail.
            resolution.waitingFor = .group(resolution.group.root)
            lock.wait()
            resolution.waitingFor = nil
        }
        return wasDropped(resolution, since: mark) ? .makeAgain : .keep
    }

    /// `settle` for an awaited lookup: waits by suspending.
    @inline(never)
    static func settle(_ resolution: Resolution, since mark: UInt64) async -> Bool {
        let lock = Coordinator.lock
        while true {
            lock.lock()
            guard let phase = unsettled(resolution), mayWait(resolution, for: phase, synchronously: false) else {
                defer { lock.unlock() }
                return wasDropped(resolution, since: mark)
            }
            let waiter = AsyncWaiter()
            let target = WaitTarget.group(resolution.group.root)
            target.add(waiter)
            // Seen by the wait-for graph: a lookup whose wait would close a cycle through this
            // one resumes it to look again (`SingletonSlot.claim`), and a blocking caller does
            // not wait for what it makes.
            resolution.waitingFor = target
            resolution.markSuspended()
            lock.unlock()
            await withTaskCancellationHandler {
                await waiter.suspend()
            } onCancel: {
                stopWaiting(waiter, resolution)
            }
            // A cancelled task stops waiting and hands its object out as it is.
            let cancelled = lock.withLock { () -> Bool in
                resolution.waitingFor = nil
                return waiter.wasCancelled
            }
            if cancelled { return false }
        }
    }

    /// The task of `waiter` was cancelled: it stops waiting.
    private static func stopWaiting(_ waiter: AsyncWaiter, _ resolution: Resolution) {
        let task = Coordinator.lock.withLock { () -> Resumption<Void>? in
            WaitTarget.group(resolution.group.root).remove(waiter)
            return waiter.wake(cancelled: true)
        }
        task?.resume()
    }

    /// Whether an injection of the group of `resolution` failed, dropping what the group made,
    /// after an early reference was handed out since `mark`: only then can the lookup's object
    /// hold a dropped one. Called with the lock held.
    private static func wasDropped(_ resolution: Resolution, since mark: UInt64) -> Bool {
        resolution.group.root.lastDrop > mark
    }

    /// The group's state as a phase the wait-for graph reads (its injectors block it), or `nil`
    /// when it injects nothing. Called with the lock held.
    private static func unsettled(_ resolution: Resolution) -> CreationPhase? {
        let root = resolution.group.root
        return root.injectors.isEmpty ? nil : .deferred(group: root, shareable: true)
    }

    /// Whether `resolution` may wait for `phase`: not when waiting closes a cycle, and by the
    /// phase's rules for every wait (`CreationPhase.mayBeWaitedFor`). Called with the lock held.
    private static func mayWait(_ resolution: Resolution, for phase: CreationPhase, synchronously: Bool) -> Bool {
        Coordinator.cycle(through: phase, to: resolution) == nil && phase.mayBeWaitedFor(synchronously: synchronously)
    }
}
