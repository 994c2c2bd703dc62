/// The part of an `Inject` the context reads and writes without knowing `Value`, through the
/// offset recorded in the owner type's injection plan.
@usableFromInline
struct InjectHeader: Sendable {
    @usableFromInline let key: String?
    @usableFromInline let isLazy: Bool
    /// `true` until the wrapper is injected or assigned: the plan skips it otherwise.
    @usableFromInline var isPending: Bool
    @usableFromInline let file: StaticString
    @usableFromInline let line: UInt
    /// `Inject<Value>.fill`, for this wrapper's `Value`.
    @usableFromInline let fill: @Sendable (ValueSlot, InjectRequest, ValueSlot?) throws(ContextError) -> Bool

    @inlinable
    init(key: String?, isLazy: Bool, file: StaticString, line: UInt, fill: @escaping @Sendable (ValueSlot, InjectRequest, ValueSlot?) throws(ContextError) -> Bool) {
        self.key = key
        self.isLazy = isLazy
        self.isPending = true
        self.file = file
        self.line = line
        self.fill = fill
    }

    /// The message a read that failed stops the program with, for the property declared at
    /// `file`:`line`.
    static func stopMessage(for error: ContextError, file: StaticString, line: UInt) -> String {
        if case .neverInjected = error { return error.description }
        return "@Inject property declared at \(file):\(line) could not be read: \(error) Use `try $property.get()` to handle the error instead of stopping."
    }
}
