/// Where a class instance's stored property lies in it, for a read that must name its
/// `@Inject` property (`PropertyNaming`): the offset the owner type's injection plan recorded for
/// the field.
@usableFromInline
enum StorageOffset {
    /// How far into `owner` the stored property `storage` lies: its address, taken for an
    /// instant, less the object's. Inlined where `storage` is a key path literal, which the
    /// compiler turns into the property's address without making the key path. Only compared
    /// with the plan's offsets: an address that is not a field's names none.
    @inlinable @inline(__always)
    static func of<Owner: AnyObject, Field>(_ storage: ReferenceWritableKeyPath<Owner, Field>, in owner: Owner) -> Int {
        withUnsafeMutablePointer(to: &owner[keyPath: storage]) { Int(bitPattern: $0) } &- Int(bitPattern: ObjectIdentifier(owner))
    }
}
