/// What a definition's closure receives to look up the objects it depends on.
///
/// ```swift
/// createSingleton("mailer") { r in Mailer(clock: try r.object("clock")) }
/// createSingleton("pool") { r in try await Pool.connect(try await r.object("config", as: Config.self)) }
/// ```
/// Lookups resolve in the context that owns the definition (then its parents), never in a child
/// that happened to ask first, and record the dependency for ``ApplicationContext/graph(_:)``.
/// They belong to the lookup that is making the definition: its path, its cycle detection and,
/// for `validate`, its problem collector come along, also across `await`, `async let` and task
/// groups. A resolver is meant for the duration of the closure; keep the objects, not the
/// resolver. It is `Sendable`, so a `@MainActor` closure or a child task may use it too.
public struct Resolver: Sendable {
    @usableFromInline let context: ApplicationContext
    @usableFromInline let requester: Int
    @usableFromInline let resolution: Resolution
    /// The frames `resolution` had when the closure was called: the closure's own frame on top.
    @usableFromInline let depth: Int

    init(_ context: ApplicationContext, _ requester: Int, _ resolution: Resolution) {
        self.context = context
        self.requester = requester
        self.resolution = resolution
        self.depth = resolution.depth
    }

    @usableFromInline
    var asRequester: Requester {
        Requester(context: Unretained(context), index: requester, resolution: Unretained(resolution), depth: depth, label: nil)
    }

    /// The object named `keyOrAlias`, as ``ApplicationContext/object(_:as:)-97a0b`` finds it from the
    /// context owning this definition.
    ///
    /// - Throws: ``ContextError``; let it propagate out of the closure unchanged, it already
    ///   carries the whole resolution path. A synchronous lookup of an async definition not made
    ///   yet is ``ContextError/requiresAwait(key:path:)``.
    @inlinable
    public func object<T>(_ keyOrAlias: String, as type: T.Type = T.self) throws(ContextError) -> T {
        try ValueSlot.making(T.self) { result throws(ContextError) in
            let outcome = try context._object(named: keyOrAlias, type: ObjectIdentifier(T.self), into: result, from: asRequester)
            try context._complete(outcome, named: keyOrAlias, as: T.self, into: result, from: asRequester, wrapsInline: false)
        }
    }

    /// The object named `keyOrAlias`, made by an async lookup if needed: async definitions are
    /// awaited, a singleton another task is making is waited for by suspending.
    ///
    /// ```swift
    /// createEagerSingleton("pool") { r in try await Pool.connect(try await r.object("config", as: Config.self)) }
    /// ```
    ///
    /// - Throws: ``ContextError``, as the synchronous form; a task cancelled while it waits for a
    ///   singleton another task is making stops waiting with
    ///   ``ContextError/creationFailed(key:path:underlying:)`` wrapping `CancellationError`.
    public func object<T>(_ keyOrAlias: String, as type: T.Type = T.self) async throws(ContextError) -> T {
        try await context._objectAsync(named: keyOrAlias, as: T.self, from: AsyncRequester(self))
    }

    /// A lookup that does not say its type, which cannot compile: the message says how to give it.
    @available(*, unavailable, message: "say which type you want: `let clock: Clock = try r.object(\"clock\")` or `try r.object(\"clock\", as: Clock.self)`")
    public func object(_ keyOrAlias: String) -> UnannotatedLookup {
        fatalError("unavailable")
    }

    /// Whether the owning context or one of its parents answers to `keyOrAlias`.
    public func contains(_ keyOrAlias: String) -> Bool { context.contains(keyOrAlias) }

    /// The name of the context that owns the definition being made.
    public var contextName: String { context.name }
}
