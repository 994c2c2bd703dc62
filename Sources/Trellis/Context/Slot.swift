import Synchronization

/// The per-context state of one definition: the made singleton, and caches that keep repeated
/// creations cheap.
///
/// The made singleton is published once through `instance` (release) and read without a lock
/// (acquire): the hot path of a lookup. Everything else about creation is guarded by
/// `Coordinator.lock`, taken only while a singleton is being made.
final class Slot: @unchecked Sendable {
    // Safe: `phase` is read and written only while holding `Coordinator.lock`; the other stored
    // properties are atomics or immutable.
    enum Phase {
        case idle
        /// The closure is running on `owner`'s thread.
        case creating(owner: CreationStack)
        /// Made and cached for `owner`'s thread while its properties are injected; other threads
        /// wait until it is published.
        case injecting(owner: CreationStack, box: AnyBox)
    }

    let key: String
    /// The published singleton, retained by the slot.
    let instance = Atomic<Unmanaged<AnyBox>?>(nil)
    /// The injection plan of the type this definition made last; plans are immortal.
    let plan = Atomic<Unmanaged<InjectionPlan>?>(nil)
    /// Set once the definition was made successfully: its dependency edges are recorded.
    let edgesRecorded = Atomic<Bool>(false)
    var phase = Phase.idle

    init(key: String) { self.key = key }

    deinit {
        instance.load(ordering: .acquiring)?.release()
    }

    /// The made singleton, if any.
    @inline(__always)
    var madeBox: AnyBox? { instance.load(ordering: .acquiring)?.takeUnretainedValue() }

    /// The thread making this singleton, if one is.
    var owner: CreationStack? {
        switch phase {
        case .idle: nil
        case let .creating(owner), let .injecting(owner, _): owner
        }
    }
}

/// The one lock of the creation slow path, shared by every context because a resolution may
/// cross contexts (a child's singleton depends on its parent's). Held only to change a slot's
/// phase or to wait, never while a user's closure runs.
enum Coordinator {
    static let lock = Lock()
}
