/// Runs `body` with uninitialised stack memory for one `T`, which `body` must leave initialised,
/// and returns the `T` moved out of it.
///
/// Not `withUnsafeTemporaryAllocation` returning the `T`: with a throwing body, that carries the
/// value out through a `Result` it copies and then destroys through the generic value witness
/// table (a retain, a release and two witness calls per lookup). A `Void` body's `Result` is
/// trivial, and the value is moved out instead of copied.
@inlinable
@inline(__always)
func withTemporarySlot<T>(of type: T.Type, _ body: (UnsafeMutablePointer<T>) throws(ContextError) -> Void) throws(ContextError) -> T {
    var moved: T?
    try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer throws(ContextError) in
        try body(buffer.baseAddress!)
        moved = buffer.baseAddress!.move()
    }
    return moved.take().unsafelyUnwrapped
}
