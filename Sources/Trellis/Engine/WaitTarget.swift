/// What a resolution is blocked on: a singleton of a context, the first read of a lazy
/// property (the slots the claim loops, `acquireBlocking` and `acquireSuspending`, wait on), or
/// its own publication group's injections (`GroupSettlement`). Every wait is one, so that the
/// wait-for graph sees it.
enum WaitTarget: @unchecked Sendable {
    // Safe: every member used through a target (phase, waiters) is read and written only with
    // `Coordinator.lock` held; a singleton's context is held by whoever waits.
    case singleton(SingletonSlot)
    case lazyProperty(LazyInjectionSlot)
    /// The group (a root) whose injections a prototype's or weak singleton's lookup waits to end.
    case group(PublicationGroup)

    /// The target's phase. Called with `Coordinator.lock` held.
    var phase: CreationPhase {
        switch self {
        case let .singleton(slot): slot.phase
        case let .lazyProperty(slot): slot.phase
        case let .group(group): group.root.injectors.isEmpty ? .idle : .deferred(group: group.root, shareable: true)
        }
    }

    /// The key waited for, for a cycle's path; `nil` for a group, which waits for no one key.
    var key: String? {
        switch self {
        case let .singleton(slot): slot.key
        case let .lazyProperty(slot): slot.name
        case .group: nil
        }
    }

    /// Adds a task waiting for the slot. Called with `Coordinator.lock` held.
    func add(_ waiter: AsyncWaiter) {
        switch self {
        case let .singleton(slot): slot.add(waiter)
        case let .lazyProperty(slot): slot.asyncWaiters.append(waiter)
        case let .group(group): group.root.settleWaiters = (group.root.settleWaiters ?? []) + [waiter]
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
            woken = slot.wakeWaiters()
        case let .group(group):
            woken = group.root.wakeSettleWaiters()
        }
        for task in woken { task.resume() }
    }

    /// Removes a waiting task, if it is still there. Called with `Coordinator.lock` held.
    func remove(_ waiter: AsyncWaiter) {
        switch self {
        case let .singleton(slot): slot.remove(waiter)
        case let .lazyProperty(slot):
            if let position = slot.asyncWaiters.firstIndex(where: { $0 === waiter }) { slot.asyncWaiters.remove(at: position) }
        case let .group(group):
            group.root.settleWaiters?.removeAll { $0 === waiter }
        }
    }
}
