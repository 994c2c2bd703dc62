/// Where a context stands in its life. Stored once, in `ApplicationContext.lifecycle`: an atomic
/// that every lookup reads without a lock (anything but `open` refuses it), written only with
/// `Coordinator.lock` held, so a reader holding the lock sees the latest phase.
enum LifecyclePhase: UInt8 {
    case open = 0
    /// `close()` has begun and its disposals are running; closers that arrive wait.
    case closing = 1
    /// As `closing`, begun by an awaited close, whose disposals may be async: a synchronous
    /// closer must not block for them.
    case closingMayAwait = 2
    /// Every disposal is done.
    case closed = 3
}
