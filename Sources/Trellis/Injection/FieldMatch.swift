/// Which of an owner's `@Inject` fields a read is of, for `PropertyNaming`: the fields of the
/// wrapper's type, and a test of each wrapper in place. Made only by a read that must name its
/// property (a first read from the current context, a read of a property never injected).
final class FieldMatch {
    /// The wrapper's type, `Inject<Value>`.
    let wrapper: ObjectIdentifier
    /// Whether the wrapper at the slot (a field of the owner, of type `wrapper`) is the one read.
    let isRead: (ValueSlot) -> Bool

    init(wrapper: Any.Type, isRead: @escaping (ValueSlot) -> Bool) {
        self.wrapper = ObjectIdentifier(wrapper)
        self.isRead = isRead
    }
}
