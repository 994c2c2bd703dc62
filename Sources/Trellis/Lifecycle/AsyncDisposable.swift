/// A singleton that releases resources asynchronously when its context is closed: a connection
/// pool draining its connections, a background task shutting down.
///
/// ```swift
/// final class DatabasePool: AsyncDisposable {
///     func dispose() async throws { try await closeConnections() }
/// }
/// try await app.close()
/// ```
/// Only ``ApplicationContext/close()-507l8`` can dispose it: the synchronous `close()` of a
/// context that made one throws ``ContextError/requiresAwait(key:path:)`` and leaves the context
/// open. An object adopting both protocols is disposed once, asynchronously.
public protocol AsyncDisposable {
    /// Releases the object's resources.
    ///
    /// Runs off the closing caller's actor unless the conformance is isolated (`@concurrent`,
    /// as every nonisolated async method of a module without `NonisolatedNonsendingByDefault`).
    @concurrent func dispose() async throws
}
