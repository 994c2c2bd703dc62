/// A task suspended until a singleton another task or thread is making changes phase.
///
/// Registered in the definition's state while holding `Coordinator.lock`; its resumption is
/// set, and resumed, in whichever order the suspending task and the waker get there.
final class AsyncWaiter: @unchecked Sendable {
    // Safe: every property is read and written only while holding `Coordinator.lock`; the
    // suspended task is resumed after the lock is released, exactly once (whoever takes it).
    private var suspended: Resumption<Void>?
    private var isWoken = false
    /// The task was cancelled while waiting: it stops waiting with `CancellationError`.
    private(set) var wasCancelled = false

    /// Wakes the waiter. Called with the lock held; returns the task to resume after
    /// unlocking, if the waiter has suspended already.
    func wake(cancelled: Bool = false) -> Resumption<Void>? {
        guard !isWoken else { return nil }
        isWoken = true
        wasCancelled = cancelled
        defer { suspended = nil }
        return suspended
    }

    /// Suspends until woken (which may have happened already).
    func suspend() async {
        await Resumption<Void>.suspend { task in
            let resumeNow = Coordinator.lock.withLock { () -> Bool in
                if isWoken { return true }
                suspended = task
                return false
            }
            if resumeNow { task.resume() }
        }
    }
}
