import Synchronization

/// The creation state of one definition in one context, used off the hot path: the lookup of a
/// made singleton reads the context's `published` pointers instead.
///
/// Everything about creation is guarded by `Coordinator.lock`, taken only while a singleton is
/// being made.
final class Slot: @unchecked Sendable {
    // Safe: `phase` is used only while holding `Coordinator.lock`; the other stored
    // properties are atomics or immutable.
    enum Phase {
        case idle
        /// The closure is running on `owner`'s thread.
        case creating(owner: CreationStack)
        /// Made and cached for `owner`'s thread while its properties are injected (and until the
        /// outermost singleton being injected on that thread is done); other threads wait until
        /// it is published.
        case injecting(owner: CreationStack, box: AnyBox)
    }

    let key: String
    /// The published singleton, retained by the slot.
    let instance = Atomic<Unmanaged<AnyBox>?>(nil)
    var phase = Phase.idle

    init(key: String) { self.key = key }

    deinit {
        instance.load(ordering: .acquiring)?.release()
    }

    /// The made singleton, if any.
    var madeBox: AnyBox? { instance.load(ordering: .acquiring)?.takeUnretainedValue() }

    /// The thread making this singleton, if one is.
    var owner: CreationStack? {
        switch phase {
        case .idle: nil
        case let .creating(owner), let .injecting(owner, _): owner
        }
    }
}
