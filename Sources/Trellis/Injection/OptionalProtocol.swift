/// `Optional`, seen without its wrapped type: what an `@Inject` property of optional type needs
/// to read `nil` when nothing answers to its key.
@usableFromInline
protocol OptionalProtocol {
    static var none: Self { get }
    static var wrappedType: Any.Type { get }
}

extension OptionalProtocol {
    /// Writes `none` into `slot`, an empty slot of this type.
    @usableFromInline
    static func initializeNone(in slot: ValueSlot) {
        slot.initialize(as: Self.self, to: Self.none)
    }
}

extension Optional: OptionalProtocol {
    @usableFromInline static var wrappedType: Any.Type { Wrapped.self }
}
