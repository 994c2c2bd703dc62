/// What a resolution is blocked on: a definition of a context, or the first read of a lazy
/// property. The slot the claim loops (`acquireBlocking`, `acquireSuspending`) wait on.
enum WaitTarget: @unchecked Sendable {
    // Safe: the context is held by whoever waits (unretained here), and every member used through
    // a target (phase, waiters) is read and written only with `Coordinator.lock` held.
    case definition(Unretained<ApplicationContext>, Int)
    case lazyProperty(LazyInjectionSlot)

    /// The target's phase. Called with `Coordinator.lock` held.
    var phase: CreationPhase {
        switch self {
        case let .definition(context, index): context.with { $0.states[index].phase }
        case let .lazyProperty(slot): slot.phase
        }
    }

    var key: String {
        switch self {
        case let .definition(context, index): context.with { $0.table.keys[index] }
        case let .lazyProperty(slot): slot.name
        }
    }

    /// Adds a task waiting for the slot. Called with `Coordinator.lock` held.
    func add(_ waiter: AsyncWaiter) {
        switch self {
        case let .definition(context, index): context.with { $0.states[index].asyncWaiters.append(waiter) }
        case let .lazyProperty(slot): slot.asyncWaiters.append(waiter)
        }
    }

    /// Removes a waiting task, if it is still there. Called with `Coordinator.lock` held.
    func remove(_ waiter: AsyncWaiter) {
        switch self {
        case let .definition(context, index):
            context.with { context in
                if let position = context.states[index].asyncWaiters.firstIndex(where: { $0 === waiter }) {
                    context.states[index].asyncWaiters.remove(at: position)
                }
            }
        case let .lazyProperty(slot):
            if let position = slot.asyncWaiters.firstIndex(where: { $0 === waiter }) { slot.asyncWaiters.remove(at: position) }
        }
    }
}
