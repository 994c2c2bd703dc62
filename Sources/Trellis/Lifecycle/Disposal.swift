/// How one made singleton is disposed, learned by casting it where the close runs.
///
/// The casts are the only place the context asks whether an object is ``Disposable`` or
/// ``AsyncDisposable``, so every form of `close` (and a failed start) sees the same answer. A
/// conformance isolated to the main actor (every conformance of a class in a module built with
/// default main-actor isolation) fails the cast off that actor; ``IsolatedConformance`` tells
/// that failure from "not disposable", so such an object is disposed on the main actor instead of
/// being skipped.
enum Disposal {
    /// Not disposable.
    case none
    /// A conformance usable on any actor.
    case synchronous(any Disposable)
    /// Awaited; wins over `Disposable` for an object adopting both.
    case asynchronous(any AsyncDisposable)
    /// A conformance isolated to the main actor: disposed there (awaited if `isAsync`), wherever
    /// the cast ran. Classified by the conformance, not by the cast, which succeeds on the main
    /// actor: a disposal handed to a task or a thread would otherwise run off it.
    case onMainActor(isAsync: Bool)
    /// A conformance isolated to a global actor other than the main actor, which the context
    /// cannot reach: its close reports ``ConformanceIsolated`` for it (never skips it silently).
    case unreachable

    /// The isolation of a type's disposal conformance, read once per type (`InjectionPlan`).
    enum Isolation {
        /// Not isolated, or not disposable: a cast classifies its values.
        case none
        /// `Disposable` (or, `isAsync`, `AsyncDisposable`) on the main actor only.
        case mainActor(isAsync: Bool)
        /// `Disposable` (or, `isAsync`, `AsyncDisposable`) on another global actor only.
        case otherGlobalActor(isAsync: Bool)

        /// The isolation of `type`'s conformances, read from the conformances themselves, so
        /// the answer does not depend on the actor of whoever asked first. `AsyncDisposable`
        /// wins over `Disposable`, as in a close.
        init(of type: Any.Type) {
            let isAsync = Runtime.conformance(of: type, to: (any AsyncDisposable).self) != .none
            let isolation = isAsync ? Runtime.isolation(of: type, to: (any AsyncDisposable).self) : Runtime.isolation(of: type, to: (any Disposable).self)
            switch isolation {
            case .none: self = .none
            case .mainActor: self = .mainActor(isAsync: isAsync)
            case .otherGlobalActor: self = .otherGlobalActor(isAsync: isAsync)
            }
        }
    }

    /// Disposing it takes an `await`: an async disposal, or a hop to the main actor.
    var mustBeAwaited: Bool {
        switch self {
        case .asynchronous, .onMainActor: true
        case .synchronous, .none, .unreachable: false
        }
    }

    /// The error reported for a value whose conformance the context cannot reach: named by
    /// the type a cast looks at (an optional's wrapped value, an `AnyHashable`'s base) and the
    /// protocol a close uses (`AsyncDisposable` wins, as in a close).
    static func unreachable(_ value: Any) -> ConformanceIsolated {
        let inner = CastTransparency.innermost(value).map { type(of: $0) } ?? type(of: value)
        let (isAsync, isOnAnotherActor) = switch InjectionPlan.unretained(of: inner).with({ $0.disposalIsolation }) {
        case .none: (false, false)
        case let .mainActor(isAsync): (isAsync, false)
        case let .otherGlobalActor(isAsync): (isAsync, true)
        }
        return ConformanceIsolated(type: String(reflecting: inner), protocolName: isAsync ? "AsyncDisposable" : "Disposable", isOnAnotherActor: isOnAnotherActor)
    }

    /// Whether a value of dynamic type `type` adopts neither protocol, with any isolation, and
    /// no cast sees through it (an optional, an `AnyHashable`, a bridged type answer `false` and
    /// are cast): known from its type's plan (kept for the process), without a cast. `type` is a
    /// dynamic type, never a declared existential (whose plan would say "adopts nothing").
    static func isNever(type: Any.Type) -> Bool {
        InjectionPlan.unretained(of: type).with { $0.isNeverDisposable }
    }

    /// `init(of:)` for a made singleton: a class instance is classified through its reference,
    /// without copying it into an `Any` to be cast back.
    init(of made: MadeValue) {
        guard let object = made.classInstance else {
            self.init(of: made.anyValue)
            return
        }
        self = Self.known(from: type(of: object), object) ?? Self.cast(object)
    }

    init(of value: Any) {
        self = Self.known(from: type(of: value), value as AnyObject) ?? Self.cast(value)
    }

    /// What the plan of `type` (the value's dynamic type) says without a cast: never disposed,
    /// or the common disposable (a transaction, a connection), cast to its own class by the
    /// plan's disposer; `nil` when only a cast can tell.
    @inline(__always)
    private static func known(from type: Any.Type, _ object: @autoclosure () -> AnyObject) -> Disposal? {
        let plan = InjectionPlan.unretained(of: type)
        if plan.with({ $0.isNeverDisposable }) { return Disposal.none }
        guard let disposer = plan.with({ $0.plainDisposer }) else { return nil }
        return .synchronous(disposer(object()))
    }

    /// The classification by casts, after the conformance's isolation: an isolated conformance
    /// is classified by its actor wherever this runs (the plan of the type the cast looks at,
    /// `CastTransparency.innermost`: an optional's wrapped value, an `AnyHashable`'s base).
    private static func cast(_ value: Any) -> Disposal {
        if let inner = CastTransparency.innermost(value) {
            switch InjectionPlan.unretained(of: type(of: inner)).with({ $0.disposalIsolation }) {
            case .none: break
            case let .mainActor(isAsync): return .onMainActor(isAsync: isAsync)
            case .otherGlobalActor: return .unreachable
            }
        }
        if let disposable = value as? any AsyncDisposable { return .asynchronous(disposable) }
        if let disposable = value as? any Disposable { return .synchronous(disposable) }
        return .none
    }

    /// Awaits an async disposal. Not on the closing caller's actor: `dispose()` is a nonisolated
    /// async method, which runs on the global executor anyway.
    /// Disposes `value` as it is classified: awaited, synchronously, or on the main actor. The
    /// one place an object is disposed with `await`, for every close form.
    nonisolated(nonsending)
    static func dispose(_ value: Any) async throws {
        try await Disposal(of: value).perform(on: value)
    }

    /// Disposes `value`, classified as `self`; a synchronous disposal in the scope of close
    /// `scope` (if given) on its thread only (`ClosingScope.disposingSynchronously`).
    nonisolated(nonsending)
    func perform(on value: Any, scope: UInt64? = nil) async throws {
        switch self {
        case let .asynchronous(disposable): try await Disposal.await(UncheckedSendable(disposable))
        case let .synchronous(disposable): try ClosingScope.disposingSynchronously(scope) { Result { try disposable.dispose() } }.get()
        case .onMainActor: try await Disposal.disposeOnMainActor(UncheckedSendable(value), scope: scope)
        case .unreachable: throw Disposal.unreachable(value)
        case .none: break
        }
    }

    static func await(_ disposable: UncheckedSendable<any AsyncDisposable>) async throws {
        try await disposable.value.dispose()
    }

    /// Disposes `value` on the main actor, awaiting an async disposal.
    ///
    /// - Throws: what `dispose()` throws, or ``ConformanceIsolated`` when the cast fails there
    ///   too (a conformance isolated to another global actor).
    @MainActor
    static func disposeOnMainActor(_ value: UncheckedSendable<Any>, scope: UInt64? = nil) async throws {
        if let disposable = value.value as? any AsyncDisposable { return try await Disposal.await(UncheckedSendable(disposable)) }
        if let disposable = value.value as? any Disposable {
            return try ClosingScope.disposingSynchronously(scope) { Result { try disposable.dispose() } }.get()
        }
        throw unreachable(value.value)
    }

    /// `value` as a `Disposable` usable here, when its conformance is isolated to the main
    /// actor: the cast succeeds only on the main actor, so `nil` means the caller is not on it
    /// (or is where the runtime's cast cannot see it: code on the main queue outside any task,
    /// on Linux), and a disposable returned is disposed right here, on the main actor.
    static func usableHere(_ value: Any) -> (any Disposable)? {
        value as? any Disposable
    }
}
