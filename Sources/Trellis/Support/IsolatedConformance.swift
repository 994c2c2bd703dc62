/// Tells a cast that failed because a conformance is isolated to a global actor (SE-0470) from
/// one that failed because there is no conformance.
///
/// In a module built with default main-actor isolation (a new app target), `final class Undo:
/// Disposable` conforms on the main actor only: `undo as? any Disposable` succeeds there and
/// returns `nil` anywhere else. A context that casts off the main actor would take such an object
/// for one that does not conform at all, and skip its `dispose()` without a word (it did, until
/// this check). Where a cast fails, the context asks here whether the conformance exists with an
/// isolation the caller lacks, and then hops to the main actor (an awaited `close`, an async
/// injection's `didInject`) or throws an error that names the key and the fix; never skips.
///
/// The language has no API for the question: the runtime's is asked (`Runtime.conformance`,
/// which says what it relies on and what breaks if that changes).
enum IsolatedConformance {
    /// Whether `value` would be an `Existential` (for example `any Disposable`) if the caller ran
    /// on the actor its conformances are isolated to: every protocol of `Existential` is
    /// conformed to, and at least one conformance is isolated to an actor the caller is not on.
    /// `false` when the cast would succeed here, or could succeed nowhere. Asked of what the
    /// cast looks at (`CastTransparency.innermost`): an optional's wrapped value, an
    /// `AnyHashable`'s base.
    static func isolates<Existential>(_ value: Any, from _: Existential.Type) -> Bool {
        guard let inner = CastTransparency.innermost(value) else { return false }
        return isolates(type(of: inner), from: Existential.self)
    }

    /// `isolates(_:from:)` for a type rather than a value.
    static func isolates<Existential>(_ type: Any.Type, from _: Existential.Type) -> Bool {
        Runtime.conformance(of: type, to: Existential.self) == .isolatedElsewhere
    }

    /// Whether `type` conforms to every protocol of `Existential` with a conformance isolated to a
    /// global actor, wherever the caller runs.
    ///
    /// Needed for class-bound protocols (`InjectionAware: AnyObject`): the runtime's cast to a
    /// class-bound existential does not check isolation (seen with Swift 6.3), so it succeeds off
    /// the main actor and would let the context call a main-actor method there. The first word
    /// of the runtime's conformance execution context is the global actor's type, set only for
    /// an isolated conformance.
    static func isIsolated<Existential>(_ type: Any.Type, to _: Existential.Type) -> Bool {
        Runtime.conformance(of: type, to: Existential.self, readingIsolation: true) == .isolatedElsewhere
    }
}
