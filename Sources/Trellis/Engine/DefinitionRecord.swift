import Synchronization

/// Everything a context keeps about one definition, in one record of one buffer: the fields
/// every lookup reads first, side by side on one cache line, then the creation state.
struct DefinitionRecord: ~Copyable {
    /// The made singleton's value (as its declared type), published once with release ordering
    /// and read with acquire ordering: the lock-free hot path.
    let published = Atomic<UnsafeRawPointer?>(nil)
    /// The declared type of the definition's objects.
    let objectType: Any.Type
    let scope: Scope
    /// The closure must be awaited.
    let isAsync: Bool
    /// `objectType` is a class type.
    let isClassType: Bool
    /// The closure is `@MainActor`.
    let runsOnMainActor: Bool
    /// The definition names others with `dependsOn`: they are looked up before its closure runs.
    let hasPrerequisites: Bool
    /// Set once the definition was made successfully: its dependency edges are recorded.
    let edgesRecorded = Atomic<Bool>(false)
    /// How to inject the objects it makes (of the type it made first), retained; set once.
    let injection = Atomic<Unmanaged<InjectionRoute>?>(nil)

    init(objectType: Any.Type, scope: Scope, isAsync: Bool, isClassType: Bool, runsOnMainActor: Bool, hasPrerequisites: Bool) {
        self.objectType = objectType
        self.scope = scope
        self.isAsync = isAsync
        self.isClassType = isClassType
        self.runsOnMainActor = runsOnMainActor
        self.hasPrerequisites = hasPrerequisites
    }

    var typeID: ObjectIdentifier { ObjectIdentifier(objectType) }

    deinit {
        if let route = injection.load(ordering: .acquiring), !route.withGuaranteedReference({ $0.isShared }) { route.release() }
    }
}

/// The creation state of one definition, guarded by `Coordinator.lock`: in a buffer of its own,
/// beside the records, because writing it through a record would be (to the thread sanitizer,
/// and to the language's exclusivity rules) a write to the whole record, which lock-free
/// lookups read at the same time.
struct CreationState {
    var phase = CreationPhase.idle
    /// The singleton, from the end of its closure on; published when the record's `published`
    /// is set. Never released while the lock is held (its `deinit` is user code).
    var box: AnyBox?
    /// Tasks waiting for this singleton.
    var asyncWaiters: [AsyncWaiter] = []
    /// When it was published, in `Coordinator.nextSequence()` order (disposal order).
    var madeOrder: UInt64 = 0
    /// A weak singleton's object, once made: it is never published (a lock-free read could not
    /// keep it alive), and lookups take it from here, under the lock. A strong reference loaded
    /// from it is released after the lock: it may be the last one. Behind a reference rather
    /// than a `weak var` here, which would make initialising the states of every context (10,000
    /// definitions, or one context per request) go through the runtime's weak-reference calls.
    var weakObject: WeakReference?
}

/// A weak reference to a weak singleton's object.
final class WeakReference {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}
