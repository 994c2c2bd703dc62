/// A suspended task, to be resumed exactly once with a `Value`: what a waiter hands to whoever
/// wakes it, so that the task is resumed after the lock under which that was decided is
/// released.
///
/// Over the unchecked continuation, not the checked one: every wait of an async lookup for a
/// singleton that another task is making goes through here, and a checked continuation
/// allocates and tracks its resumption. Whoever holds a resumption must resume it exactly once
/// (twice is undefined behaviour, never leaks the task): each waiter (`AsyncWaiter`,
/// `BoundedDisposal.Watch`) hands its resumption out at most once, under its lock.
struct Resumption<Value: Sendable>: Sendable {
    // Resumed exactly once, by whoever the waiter handed it to (see above).
    private let continuation: UnsafeContinuation<Value, Never>

    /// Suspends the calling task and calls `register` with its resumption, to keep for a waker
    /// or to resume at once; returns the value it is resumed with.
    static func suspend(_ register: (Resumption) -> Void) async -> Value {
        await withUnsafeContinuation { register(Resumption(continuation: $0)) }
    }

    /// Resumes the task with `value`.
    func resume(returning value: sending Value) { continuation.resume(returning: value) }
}

extension Resumption where Value == Void {
    /// Resumes the task.
    func resume() { continuation.resume() }
}
