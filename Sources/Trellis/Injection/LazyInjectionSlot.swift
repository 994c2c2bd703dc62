/// The creation state of one lazy property's first read, in the wait-for graph: first reads
/// take part in the context's exactly-once and cycle detection like a singleton, so a lookup
/// that comes back to the property is reported instead of hanging.
@usableFromInline
class LazyInjectionSlot: @unchecked Sendable {
    // Safe: `phase` and `asyncWaiters` are read and written only while holding
    // `Coordinator.lock`.
    var phase = CreationPhase.idle
    var asyncWaiters: [AsyncWaiter] = []

    /// The suspended tasks waiting for the first read, to resume after the lock. Called with
    /// the lock held.
    func wakeWaiters() -> [Resumption<Void>] {
        defer { asyncWaiters = [] }
        return asyncWaiters.compactMap { $0.wake() }
    }

    /// The property, as a cycle's path names it.
    var name: String { fatalError("Trellis internal error: LazyInjectionSlot.name must be overridden") }

    /// The key of the definition whose object holds the property, if any and its context lives.
    var ownerKey: String? { fatalError("Trellis internal error: LazyInjectionSlot.ownerKey must be overridden") }

    /// Reads the property as its getter first reads it, for a validation: what would stop the
    /// program there is thrown here.
    func validateFirstRead() throws(ContextError) {
        fatalError("Trellis internal error: LazyInjectionSlot.validateFirstRead must be overridden")
    }

    /// Reads the property as `try await $property.get()` first reads it, for an async validation.
    func validateFirstReadAsync() async throws(ContextError) {
        fatalError("Trellis internal error: LazyInjectionSlot.validateFirstReadAsync must be overridden")
    }
}
