/// `nil` as a `Value`, when `Value` is an `Optional`.
@usableFromInline
enum OptionalNone {
    /// Inlinable: where `Value` is known (a wrapper's filler), the temporary `Value` below is a
    /// plain stack slot; unspecialised, it would cost runtime metadata lookups.
    @inlinable
    static func value<Value>(of type: Value.Type) -> Value? {
        // The conformance found is `Value`'s own, so its `nil` is a `Value`: written into a slot
        // for a `Value`, not cast back (a second dynamic cast, about a thousand instructions).
        guard let optional = type as? any OptionalProtocol.Type else { return nil }
        return ValueSlot.making(Value.self) { optional.initializeNone(in: $0) }
    }
}
