/// How the first read of a class instance's `@Inject` property learns the property's name, which
/// the wrapper itself cannot know: from the storage key path the compiler passes
/// (`\CheckoutScreen._mailer`), checked against the fields of the owner's type.
@usableFromInline
struct PropertyNaming: @unchecked Sendable {
    // Safe: used only during the read that made it; the owner is only used for its type.
    let owner: AnyObject
    let storage: AnyKeyPath

    @inlinable
    init<Owner: AnyObject, Wrapper>(_ owner: Owner, _ storage: ReferenceWritableKeyPath<Owner, Wrapper>) {
        self.init(owner: owner, storage: storage)
    }

    @usableFromInline
    init(owner: AnyObject, storage: AnyKeyPath) {
        self.owner = owner
        self.storage = storage
    }

    /// The property's name, or `nil` if reflection cannot tell.
    func name() -> String? {
        guard let label = String(describing: storage).split(separator: ".").last else { return nil }
        let property = label.hasPrefix("_") ? String(label.dropFirst()) : String(label)
        return InjectionPlan.of(type(of: owner)).fields.contains { $0.property == property } ? property : nil
    }

    /// The owner's type name, for messages.
    var ownerName: String { String(reflecting: type(of: owner)) }
}
