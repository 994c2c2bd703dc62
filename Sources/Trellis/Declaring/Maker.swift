/// A definition's closure with its object type erased, and what the context needs to know of
/// that type before calling it.
///
/// A value, not an object: a factory of 10,000 definitions, or a context made per request,
/// would otherwise allocate (and free) one maker object per definition. The closure is kept as
/// an `ErasedClosure`, given back as the `DefinitionClosure<Object>` that `objectType` names
/// (`ApplicationContext.closure(_:as:)`, one copy per object made).
@usableFromInline
struct Maker: Sendable {
    // In this order, the flag packs after the closure's case tag: a smaller `Definition` is less
    // to copy through the builder for every definition of a factory.
    /// The type the closure is declared to return.
    let objectType: Any.Type
    /// The closure, as the `DefinitionClosure<objectType>` it was made from.
    let erased: ErasedClosure
    /// The declared type is a class: an object is a single reference.
    let isClassType: Bool
    /// The closure must be awaited.
    let isAsync: Bool
    /// The closure is synchronous and `@MainActor`.
    let runsOnMainActor: Bool
    /// The closure, synchronous or async, runs on the main actor: its synchronous lookups are
    /// made there, whoever asked for the object.
    let isMainActorBound: Bool

    /// Erases `closure`. Specialised where the factory is written, so the class test and the
    /// closure's form fold away; the flags are stored so that a context reads them without
    /// copying the closure out of its definition.
    @inlinable
    init<Object>(_ closure: DefinitionClosure<Object>) {
        let isAsync: Bool
        let runsOnMainActor: Bool
        let isMainActorBound: Bool
        switch closure {
        // An async main-actor closure is claimed, waited for and injected like any async one;
        // only the closure itself hops to the main actor (`DefinitionClosure.runAsync`).
        case .mainActorAsync: (isAsync, runsOnMainActor, isMainActorBound) = (true, false, true)
        case .asynchronous, .asyncIndependent: (isAsync, runsOnMainActor, isMainActorBound) = (true, false, false)
        case .mainActor: (isAsync, runsOnMainActor, isMainActorBound) = (false, true, true)
        case .synchronous, .independent: (isAsync, runsOnMainActor, isMainActorBound) = (false, false, false)
        }
        self.init(objectType: Object.self, isClassType: Object.self is AnyClass, isAsync: isAsync, runsOnMainActor: runsOnMainActor,
                  isMainActorBound: isMainActorBound, erased: ErasedClosure(closure))
    }

    @usableFromInline
    init(objectType: Any.Type, isClassType: Bool, isAsync: Bool, runsOnMainActor: Bool, isMainActorBound: Bool, erased: ErasedClosure) {
        self.objectType = objectType
        self.isClassType = isClassType
        self.isAsync = isAsync
        self.runsOnMainActor = runsOnMainActor
        self.isMainActorBound = isMainActorBound
        self.erased = erased
    }

    /// Why the definition can never make a usable object (a closure returning `Void`, or an
    /// optional of it), if so.
    var invalidity: String? {
        // A closure returning nothing defines an object of type `()`: the compiler only warns
        // (see the deprecated `Void` overloads in ObjectFactory.swift), the configurator rejects it.
        if objectType == Void.self {
            return "its closure returns nothing, so it would make `()`: a closure whose last statement is a `print`, or an `if` without `else`, returns nothing. Return the object, e.g. `createSingleton(\"clock\") { print(\"making the clock\"); return SystemClock() }`."
        }
        // One whose last statement is an optional chain ending in such a call (`starter?.start()`)
        // returns `()?`, which the compiler does not even warn about: nothing either way.
        guard Runtime.isOptional(objectType) else { return nil }
        var wrapped = objectType
        while let optional = wrapped as? any OptionalProtocol.Type { wrapped = optional.wrappedType }
        guard wrapped == Void.self else { return nil }
        return "its closure returns an optional of nothing (`()?`), so it would make no object: a closure whose last statement is an optional chain ending in a call that returns nothing (`starter?.start()`) returns `()?`. Return the object, e.g. `createSingleton(\"server\") { starter?.start(); return Server() }`."
    }
}
