/// Where the stored fields of an object being injected start: a class instance, or a struct in
/// its slot. Its `@Inject` wrappers are found at the offsets its type's `InjectionPlan` recorded
/// (from the runtime's reflection metadata), which is only valid for an object of that type.
///
/// Unretained: whoever injects the object keeps it alive while its fields are used.
struct ObjectFields {
    // The object's address (a class instance's, or the struct's own storage); offsets from the
    // plan of the object's dynamic type stay inside it.
    private let base: UnsafeMutableRawPointer

    /// The fields of the class instance `object`.
    init(of object: AnyObject) { base = Unretained(object).opaque }

    /// The fields of the struct in `slot`, in place.
    init(in slot: ValueSlot) { base = slot.rawValue }

    /// The header of a wrapper, in place: the `InjectHeader` inside every `Inject`, `offset`
    /// bytes into the object (a field's `headerOffset`).
    subscript(headerAt offset: Int) -> InjectHeader {
        @inline(__always) unsafeAddress { UnsafePointer((base + offset).assumingMemoryBound(to: InjectHeader.self)) }
    }

    /// The wrapper `offset` bytes into the object (a field's `offset`): an `Inject<Value>`, whose
    /// filler (`InjectHeader.fill`) knows `Value`.
    @inline(__always)
    func wrapper(at offset: Int) -> ValueSlot { ValueSlot(rawValue: base + offset) }
}
