/// What a resolution is blocked on: a singleton of a context, or the first read of a lazy
/// property. The slot the claim loops (`acquireBlocking`, `acquireSuspending`) wait on.
enum WaitTarget: @unchecked Sendable {
    // Safe: every member used through a target (phase, waiters) is read and written only with
    // `Coordinator.lock` held; a singleton's context is held by whoever waits.
    case singleton(SingletonSlot)
    case lazyProperty(LazyInjectionSlot)

    /// The target's phase. Called with `Coordinator.lock` held.
    var phase: CreationPhase {
        switch self {
        case let .singleton(slot): slot.phase
        case let .lazyProperty(slot): slot.phase
        }
    }

    var key: String {
        switch self {
        case let .singleton(slot): slot.key
        case let .lazyProperty(slot): slot.name
        }
    }

    /// Adds a task waiting for the slot. Called with `Coordinator.lock` held.
    func add(_ waiter: AsyncWaiter) {
        switch self {
        case let .singleton(slot): slot.add(waiter)
        case let .lazyProperty(slot): slot.asyncWaiters.append(waiter)
        }
    }

    /// Resumes the tasks waiting for the slot, to look again. Called with `Coordinator.lock`
    /// held: a resumed task is only scheduled, and takes the lock when it runs.
    func resumeWaitingTasks() {
        let woken: [Resumption<Void>]
        switch self {
        case let .singleton(slot):
            woken = slot.wakeWaiters()
        case let .lazyProperty(slot):
            woken = slot.asyncWaiters.compactMap { $0.wake() }
            slot.asyncWaiters = []
        }
        for task in woken { task.resume() }
    }

    /// Removes a waiting task, if it is still there. Called with `Coordinator.lock` held.
    func remove(_ waiter: AsyncWaiter) {
        switch self {
        case let .singleton(slot): slot.remove(waiter)
        case let .lazyProperty(slot):
            if let position = slot.asyncWaiters.firstIndex(where: { $0 === waiter }) { slot.asyncWaiters.remove(at: position) }
        }
    }
}
