extension ContextError {
    /// Whether the error is a task's cancellation reaching a lookup.
    var isCancellation: Bool {
        if case let .creationFailed(_, _, underlying) = self {
            return underlying is CancellationError || (underlying as? ContextError)?.isCancellation == true
        }
        return false
    }
}
