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

/// The one lock of the creation slow path, shared by every context because a resolution may
/// cross contexts (a child's singleton depends on its parent's). Held only to change a slot's
/// phase or to wait, never while a user's closure runs.
enum Coordinator {
    static let lock = Lock()

    /// The keys of the cycle that waiting for `slot` (held by `owner`) would close, or `nil` if
    /// waiting is safe. Called with `lock` held.
    static func waitCycle(from slot: Slot, owner: CreationStack, _ stack: CreationStack) -> [String]? {
        var chain = [slot.key]
        var current = owner
        // Each step moves to another thread blocked on a slot; there are finitely many threads.
        while current !== stack {
            guard let waited = current.waitingFor, let next = waited.owner else { return nil }
            chain.append(waited.key)
            current = next
        }
        return stack.path + chain
    }
}
