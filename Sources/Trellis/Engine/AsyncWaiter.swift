/// A task suspended until a singleton another task or thread is making changes phase.
///
/// Registered in the definition's record while holding `Coordinator.lock`; the continuation is
/// set, and resumed, in whichever order the suspending task and the waker get there.
final class AsyncWaiter: @unchecked Sendable {
    // Safe: every property is read and written only while holding `Coordinator.lock`; the
    // continuation is resumed after the lock is released, exactly once (whoever takes it).
    private var continuation: UnsafeContinuation<Void, Never>?
    private var isWoken = false
    /// The task was cancelled while waiting: it stops waiting with `CancellationError`.
    private(set) var wasCancelled = false

    /// Wakes the waiter. Called with the lock held; returns the continuation to resume after
    /// unlocking, if the waiter has suspended already.
    func wake(cancelled: Bool = false) -> UnsafeContinuation<Void, Never>? {
        guard !isWoken else { return nil }
        isWoken = true
        wasCancelled = cancelled
        defer { continuation = nil }
        return continuation
    }

    /// Suspends until woken (which may have happened already).
    func suspend() async {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            let resumeNow = Coordinator.lock.withLock { () -> Bool in
                if isWoken { return true }
                self.continuation = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}
