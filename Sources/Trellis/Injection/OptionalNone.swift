/// `nil` as a `Value`, when `Value` is an `Optional`.
@usableFromInline
enum OptionalNone {
    /// Inlinable: specialised for a concrete `Value`, the cast below is decided by the compiler.
    @inlinable
    static func value<Value>(of type: Value.Type) -> Value? {
        // The conformance found is `Value`'s own, so its `nil` is a `Value`: reinterpreted, not
        // cast back (a second dynamic cast, about a thousand instructions).
        (type as? any OptionalProtocol.Type)?.none(as: Value.self)
    }
}
