/// How the first read of a class instance's `@Inject` property learns the property's name, which
/// the wrapper itself cannot know: the owner's fields of the wrapper's type (from the owner type's
/// injection plan), and which of them is the one read.
///
/// Not the storage key path the compiler passes the wrapper (`\CheckoutScreen._mailer`): a read
/// that can reach the key path as an object makes the compiler materialise it on every read
/// (`swift_getKeyPath`, and the dynamic exclusivity check of an access through it: about 100
/// instructions a read, where a read of an injected property is otherwise a field load). The
/// property's getter passes the key path only to `$property`, which is read seldom.
@usableFromInline
struct PropertyNaming: @unchecked Sendable {
    // Safe: used only during the read that made it; the owner is only read for its type and its
    // fields, on the thread reading the property.
    let owner: AnyObject
    /// The storage key path (`$property` of a class instance), or the `FieldMatch` of a read.
    /// One reference either way: `$property.get()` carries this value, and a wider one cost it
    /// about 40 instructions a call.
    private let source: AnyObject

    @inlinable
    init<Owner: AnyObject, Wrapper>(_ owner: Owner, _ storage: ReferenceWritableKeyPath<Owner, Wrapper>) {
        self.init(owner: owner, storage: storage)
    }

    @usableFromInline
    init(owner: AnyObject, storage: AnyKeyPath) {
        self.owner = owner
        source = storage
    }

    /// The naming of the property read: the field of type `wrapper` of `owner` for which `isRead`
    /// answers `true`, given the wrapper in place.
    @usableFromInline
    init(owner: AnyObject, wrapper: Any.Type, isRead: @escaping (ValueSlot) -> Bool) {
        self.owner = owner
        source = FieldMatch(wrapper: wrapper, isRead: isRead)
    }

    /// The property's name, or `nil` if reflection cannot tell.
    func name() -> String? {
        let plan = InjectionPlan.of(type(of: owner))
        if let storage = source as? AnyKeyPath {
            guard let property = PropertyNames.property(ofKeyPath: storage) else { return nil }
            return plan.fields.contains { $0.property == property } ? property : nil
        }
        guard let match = source as? FieldMatch else { return nil }
        let matching = withExtendedLifetime(owner) {
            let fields = ObjectFields(of: owner)
            return plan.fields.filter { $0.wrapper == match.wrapper && match.isRead(fields.wrapper(at: $0.offset)) }
        }
        return matching.count == 1 ? matching[0].property : nil
    }

    /// The owner's type name, for messages.
    var ownerName: String { String(reflecting: type(of: owner)) }
}
