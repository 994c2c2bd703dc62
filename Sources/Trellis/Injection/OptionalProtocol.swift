/// `Optional`, seen without its wrapped type: what an `@Inject` property of optional type needs
/// to read `nil` when nothing answers to its key.
///
/// Visible to inlinable code so that a wrapper's filler, specialised for its `Value` in the
/// client, asks "is `Value` an optional?" where the compiler can answer it: a cast of a concrete
/// metatype to this protocol folds to a constant, where an unspecialised one asks the runtime
/// for the conformance (several hundred instructions for every optional property nobody
/// answers to).
@usableFromInline
protocol OptionalProtocol {
    static var none: Self { get }
    static var wrappedType: Any.Type { get }
    /// The wrapped value, if any, as an `Any`.
    var wrappedAny: Any? { get }
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
    @usableFromInline var wrappedAny: Any? { map { $0 as Any } }
}
