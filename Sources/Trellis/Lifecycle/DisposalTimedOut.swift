/// The error reported for a disposal still running when ``ApplicationContext/close(timeout:)``
/// stopped waiting for it: the disposal was left running, the other objects were disposed.
///
/// ```swift
/// do {
///     try await app.close(timeout: .seconds(5))
/// } catch .disposalFailed(_, let failures) {
///     for failure in failures { log.warning("\(failure)") }   // 'pool': still disposing after 5.0 seconds; left running
/// }
/// ```
/// In ``ContextError/disposalFailed(context:failures:)`` it appears as a
/// ``ContextError/DisposalFailure`` whose `error` is this value's description.
///
/// Thread safety: a value; `Sendable`.
public struct DisposalTimedOut: Error, Sendable, Equatable, CustomStringConvertible {
    /// The key of the singleton whose disposal was still running.
    public let key: String
    /// How long `close(timeout:)` waited for it.
    public let timeout: Duration

    /// Creates the error for `key`'s disposal, waited for `timeout`.
    public init(key: String, timeout: Duration) {
        self.key = key
        self.timeout = timeout
    }

    /// `still disposing after 5.0 seconds; left running`.
    public var description: String { "still disposing after \(timeout); left running" }
}
