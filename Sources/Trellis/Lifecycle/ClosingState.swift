/// Where `close()` of one context stands. Guarded by `Coordinator.lock`.
enum ClosingState {
    case open
    /// Disposals are running; async closers that arrived meanwhile wait here. `mayAwait`: the
    /// disposals include async ones, which a synchronous closer must not block for.
    case closing(waiters: [AsyncWaiter], mayAwait: Bool)
    case closed
}

/// The contexts this task (or thread) is closing right now: a `close()` of one of them from
/// inside its own disposals returns at once instead of waiting for itself.
enum ClosingScope {
    @TaskLocal static var contexts: [ObjectIdentifier] = []

    static func contains(_ context: ApplicationContext) -> Bool {
        contexts.contains(ObjectIdentifier(context))
    }
}
