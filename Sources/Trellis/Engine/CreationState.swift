/// The creation state of one definition, guarded by `Coordinator.lock` (but for a publication
/// without the lock, below; whoever holds the lock calls `SingletonSlot.settleLocked` before
/// reading it): in a buffer of its own,
/// beside the records, because writing it through a record would be (to the thread sanitizer,
/// and to the language's exclusivity rules) a write to the whole record, which lock-free
/// lookups read at the same time.
struct CreationState {
    var phase = CreationPhase.idle
    /// The singleton, from the end of its closure on; published when the record's `published`
    /// is set. Never released while the lock is held (its `deinit` is user code). A singleton
    /// published without the lock (`SlotOwner`) has this and `madeOrder` written by its owner,
    /// before `published` is stored with release ordering: read them after an acquire load of
    /// `published` has seen it set.
    var made: MadeValue?
    /// Tasks waiting for this singleton; `nil` until one waits (an empty array, the usual case,
    /// was a call into the runtime to destroy, for every definition of every context freed).
    var asyncWaiters: [AsyncWaiter]?
    /// When it was published, in `Coordinator.nextSequence()` order (disposal order).
    var madeOrder: UInt64 = 0
    /// A weak singleton's object, once made: it is never published (a lock-free read could not
    /// keep it alive), and lookups take it from here, under the lock. A strong reference loaded
    /// from it is released after the lock: it may be the last one. Behind a reference rather
    /// than a `weak var` here, which would make initialising the states of every context (10,000
    /// definitions, or one context per request) go through the runtime's weak-reference calls.
    var weakObject: WeakReference?
}
