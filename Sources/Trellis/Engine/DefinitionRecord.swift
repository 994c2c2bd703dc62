import Synchronization

/// Everything a context keeps about one definition, in one record of one buffer: the fields
/// every lookup reads first, side by side on one cache line. (The creation state is kept apart,
/// in the buffer's `states`: only the slow path touches it.)
struct DefinitionRecord: ~Copyable {
    /// The made singleton's value (as its declared type), published once with release ordering
    /// and read with acquire ordering: the lock-free hot path.
    let published = Atomic<ValueSlot?>(nil)
    /// The declared type of the definition's objects.
    let objectType: Any.Type
    let scope: Scope
    /// The closure must be awaited.
    let isAsync: Bool
    /// `objectType` is a class type.
    let isClassType: Bool
    /// The closure is `@MainActor`.
    let runsOnMainActor: Bool
    /// `isAsync || runsOnMainActor`: the one flag the hot paths test before taking a made object
    /// without the synchronous-use rules (`Requester.noteLookup`, the chain walk). A route's
    /// field tests only `isAsync`: an injection during a start's concurrent phase takes no route
    /// (`ObjectInjection.init`), so the main-actor rule is applied by the lookup by name.
    let hasSynchronousUseRules: Bool
    /// The definition names others with `dependsOn`: they are looked up before its closure runs.
    let hasPrerequisites: Bool
    /// Set once the definition was made successfully: its dependency edges are recorded.
    let edgesRecorded = Atomic<Bool>(false)
    /// How to inject the objects it makes (of the type it made first), retained; set once.
    let injection = Atomic<Unretained<InjectionRoute>?>(nil)
    /// The made singleton as other types it was asked for (`Conversion`), retained; a list.
    let conversions = Atomic<Unretained<Conversion>?>(nil)
    /// Who is making the singleton, for a claim and a publication without the lock
    /// (`SlotOwner`).
    let owner = Atomic<UInt>(SlotOwner.free)

    init(objectType: Any.Type, scope: Scope, isAsync: Bool, isClassType: Bool, runsOnMainActor: Bool, hasPrerequisites: Bool) {
        self.objectType = objectType
        self.scope = scope
        self.isAsync = isAsync
        self.isClassType = isClassType
        self.runsOnMainActor = runsOnMainActor
        self.hasSynchronousUseRules = isAsync || runsOnMainActor
        self.hasPrerequisites = hasPrerequisites
    }

    var typeID: ObjectIdentifier { ObjectIdentifier(objectType) }

    deinit {
        if let route = injection.load(ordering: .acquiring), !route.with({ $0.isShared }) { route.release() }
        conversions.load(ordering: .acquiring)?.release()
    }
}
