/// Implemented by `Optional`, so a lookup as `T?` of a singleton declared as `T` is copied
/// without the generic conversion path.
public protocol _OptionalOfDeclaredType {
    // Raw addresses because the requirement is public (the lookups inlined into clients call
    // it) and cannot name the internal `ValueSlot` they are the addresses of; the released API
    // fixes the signature. `value` holds a value declared as `declared`, `result` is empty.
    /// Writes `.some` of the value at `value` into `result` if the value is declared as the
    /// wrapped type; `false` otherwise.
    static func _wrap(_ value: UnsafeRawPointer, declared: ObjectIdentifier, into result: UnsafeMutableRawPointer) -> Bool
}

extension Optional: _OptionalOfDeclaredType {
    /// See ``_OptionalOfDeclaredType``.
    @inlinable
    public static func _wrap(_ value: UnsafeRawPointer, declared: ObjectIdentifier, into result: UnsafeMutableRawPointer) -> Bool {
        guard ObjectIdentifier(Wrapped.self) == declared else { return false }
        ValueSlot(rawValue: result).initialize(as: Self.self, to: .some(ValueSlot(reading: value).value(as: Wrapped.self)))
        return true
    }
}
