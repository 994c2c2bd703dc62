/// A definition's closure, in the form it was declared with.
///
/// Only the form tells the context how to call it: a closure that needs no other object is
/// called without building a ``Resolver`` (the common case for the leaves of a graph); an async
/// one must be awaited; a main-actor one runs there.
@usableFromInline
enum DefinitionClosure<Object>: Sendable {
    /// Looks up other objects through the resolver.
    case synchronous(@Sendable (Resolver) throws -> Object)
    /// Needs no other object.
    case independent(@Sendable () throws -> Object)
    case asynchronous(@concurrent @Sendable (Resolver) async throws -> Object)
    case asyncIndependent(@concurrent @Sendable () async throws -> Object)
    /// Runs on the main actor: synchronously when the caller is on it, by hopping to it from an
    /// async lookup.
    case mainActor(@MainActor @Sendable (Resolver) throws -> Object)
    /// An async closure run on the main actor: awaited by async lookups, which hop there for the
    /// closure alone.
    case mainActorAsync(@MainActor @Sendable (Resolver) async throws -> Object)
}
