/// What a definition's closure receives to look up the objects it depends on.
///
/// ```swift
/// createSingleton("mailer") { r in Mailer(clock: try r.object("clock")) }
/// ```
/// Lookups resolve in the context that owns the definition (then its parents), never in a child
/// that happened to ask first, and record the dependency for ``ApplicationContext/graph(_:)``.
/// A resolver is meant for the duration of the closure; keep the objects, not the resolver.
/// It is `Sendable`, so a `@MainActor` closure may use it too.
public struct Resolver: Sendable {
    @usableFromInline let context: ApplicationContext
    @usableFromInline let requester: Int

    init(context: ApplicationContext, requester: Int) {
        self.context = context
        self.requester = requester
    }

    /// The object named `keyOrAlias`, as ``ApplicationContext/object(_:as:)`` finds it from the
    /// context owning this definition.
    ///
    /// - Throws: ``ContextError``; let it propagate out of the closure unchanged, it already
    ///   carries the whole resolution path.
    @inlinable
    public func object<T>(_ keyOrAlias: String, as type: T.Type = T.self) throws(ContextError) -> T {
        try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer throws(ContextError) -> T in
            let result = buffer.baseAddress!
            switch try context._object(named: keyOrAlias, type: ObjectIdentifier(T.self), into: UnsafeMutableRawPointer(result), requester: requester, label: nil) {
            case let .made(value): return value.assumingMemoryBound(to: T.self).pointee
            case .madeInto: return result.move()
            case .needsConversion, .notFound: return try context._object(named: keyOrAlias, as: T.self, requester: requester)
            }
        }
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
