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

extension ValueSlot {
    /// Writes `.some` of the value in `made`, declared as the type `declared` identifies, into
    /// this empty slot for a `T`, when `T` is an optional of that type: a lookup or an `@Inject`
    /// property of type `Config?` gets the made `Config` without a dynamic cast (about 1,100
    /// instructions, uncached for an optional). `false`, writing nothing, otherwise.
    ///
    /// Inlined into code specialised for `T`, where whether `T` is an optional is a constant;
    /// `declared` is only evaluated when it is one.
    @inlinable @inline(__always)
    func initializeOptional<T>(as _: T.Type, wrapping made: ValueSlot, declared: @autoclosure () -> ObjectIdentifier) -> Bool {
        guard let optional = T.self as? any _OptionalOfDeclaredType.Type else { return false }
        return optional._wrap(made.rawValue, declared: declared(), into: rawValue)
    }
}
