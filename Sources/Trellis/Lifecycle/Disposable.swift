/// A singleton that releases resources when its context is closed.
///
/// ```swift
/// final class FileLog: Disposable {
///     func dispose() throws { try handle.close() }
/// }
/// ```
/// ``ApplicationContext/close()-5gmlg`` calls `dispose()` once, on the closing thread, before it
/// disposes what the object depends on; no library lock is held, so `dispose` may look objects
/// up in other (open) contexts. What it throws is reported in
/// ``ContextError/disposalFailed(context:failures:)``; the other singletons are disposed anyway.
public protocol Disposable {
    /// Releases the object's resources.
    func dispose() throws
}
