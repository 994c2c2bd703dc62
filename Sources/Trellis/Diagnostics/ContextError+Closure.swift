extension ContextError {
    /// What a definition's closure (`key`'s) threw, as the lookup that ran it throws it: a
    /// `ContextError` from one of the closure's own lookups unchanged (its path already says
    /// where it came from: errors never wrap errors), anything else as `creationFailed` with
    /// the lookup's `path`. The one place of that rule, for every way a closure is run.
    @inline(never)
    static func thrown(_ error: any Error, byClosureOf key: @autoclosure () -> String, path: @autoclosure () -> [String]) -> ContextError {
        if let error = error as? ContextError { return error }
        return .creationFailed(key: key(), path: path(), underlying: error)
    }
}
