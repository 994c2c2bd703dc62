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
    case synchronous(any Disposable)
    /// Awaited; wins over `Disposable` for an object adopting both.
    case asynchronous(any AsyncDisposable)
    /// Disposable only on the main actor, and the cast ran elsewhere.
    case onMainActor

    /// Disposing it takes an `await`: an async disposal, or a hop to the main actor.
    var mustBeAwaited: Bool {
        switch self {
        case .asynchronous, .onMainActor: true
        case .synchronous, .none: false
        }
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

    /// The classification by casts, with the isolated-conformance probes where a cast fails.
    private static func cast(_ value: Any) -> Disposal {
        if let disposable = value as? any AsyncDisposable { return .asynchronous(disposable) }
        if IsolatedConformance.isolates(value, from: (any AsyncDisposable).self) { return .onMainActor }
        if let disposable = value as? any Disposable { return .synchronous(disposable) }
        if IsolatedConformance.isolates(value, from: (any Disposable).self) { return .onMainActor }
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

    /// Disposes `value`, classified as `self`.
    nonisolated(nonsending)
    func perform(on value: Any) async throws {
        switch self {
        case let .asynchronous(disposable): try await Disposal.await(UncheckedSendable(disposable))
        case let .synchronous(disposable): try disposable.dispose()
        case .onMainActor: try await Disposal.disposeOnMainActor(UncheckedSendable(value))
        case .none: break
        }
    }

    static func await(_ disposable: UncheckedSendable<any AsyncDisposable>) async throws {
        try await disposable.value.dispose()
    }

    /// Disposes `value` on the main actor, awaiting an async disposal.
    ///
    /// - Throws: what `dispose()` throws, or ``ConformanceIsolated`` when the conformance is
    ///   isolated to a global actor other than the main actor.
    @MainActor
    static func disposeOnMainActor(_ value: UncheckedSendable<Any>) async throws {
        switch Disposal(of: value.value) {
        case let .asynchronous(disposable): try await disposable.dispose()
        case let .synchronous(disposable): try disposable.dispose()
        case .none, .onMainActor: throw ConformanceIsolated(type: String(reflecting: type(of: value.value)), protocolName: "Disposable")
        }
    }
}
