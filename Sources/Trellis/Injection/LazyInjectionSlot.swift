/// The creation state of one lazy property's first read, in the wait-for graph: first reads
/// take part in the context's exactly-once and cycle detection like a singleton, so a lookup
/// that comes back to the property is reported instead of hanging.
@usableFromInline
class LazyInjectionSlot: @unchecked Sendable {
    // Safe: `phase` and `asyncWaiters` are read and written only while holding
    // `Coordinator.lock`.
    var phase = CreationPhase.idle
    var asyncWaiters: [AsyncWaiter] = []

    /// The property, as a cycle's path names it.
    var name: String { fatalError("Trellis internal error: LazyInjectionSlot.name must be overridden") }
}
