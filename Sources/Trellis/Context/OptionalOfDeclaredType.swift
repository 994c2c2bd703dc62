/// Implemented by `Optional`, so a lookup as `T?` of a singleton declared as `T` is copied
/// without the generic conversion path.
public protocol _OptionalOfDeclaredType {
    /// Writes `.some` of the value at `value` into `result` if the value is declared as the
    /// wrapped type; `false` otherwise.
    static func _wrap(_ value: UnsafeRawPointer, declared: ObjectIdentifier, into result: UnsafeMutableRawPointer) -> Bool
}

extension Optional: _OptionalOfDeclaredType {
    /// See ``_OptionalOfDeclaredType``.
    @inlinable
    public static func _wrap(_ value: UnsafeRawPointer, declared: ObjectIdentifier, into result: UnsafeMutableRawPointer) -> Bool {
        guard ObjectIdentifier(Wrapped.self) == declared else { return false }
        ValueSlot(rawValue: result).initialize(to: Self.some(ValueSlot(reading: value).value(as: Wrapped.self)))
        return true
    }
}
