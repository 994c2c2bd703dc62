extension Unmanaged {
    /// Runs `body` with the unretained instance at +0, for a body that throws only
    /// `ContextError`: no retain and release around it, where the caller knows the instance
    /// outlives the call.
    @inline(__always)
    func withGuaranteedReference<R>(_ body: (Instance) throws(ContextError) -> R) throws(ContextError) -> R {
        do {
            return try _withUnsafeGuaranteedRef(body)
        } catch {
            // `_withUnsafeGuaranteedRef` rethrows untyped; `body` throws nothing but `ContextError`.
            throw error as! ContextError
        }
    }
}
