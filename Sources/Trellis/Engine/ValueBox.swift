/// A made singleton that is not an instance of a class type, type-erased: its value lives in
/// `slot`, as the type `objectType`. (An instance of a class type needs no box: `MadeValue`.)
///
/// One allocation holds the box's fields and, in its tail, the value, aligned to a cache line
/// and alone on it: threads copying the value out never share a line with a reference count
/// another thread is writing (the object's own, allocated just before the box, would otherwise
/// often sit next to it). Not generic: a generic box class would ask the runtime for its
/// metadata (a hash-table lookup) every time a singleton is made, which a context made per
/// request pays for each of its singletons; the value's type is opened from `objectType` where
/// it is needed instead.
final class ValueBox: ManagedBuffer<ValueBox.Header, UInt8> {
    // Not `Sendable` (`ManagedBuffer` is not), though safe to share: the header is written once,
    // while the box is made, and immutable after; the value is only copied out. The boxed
    // object itself is the user's: the context only hands out copies of the reference and
    // never reads or writes the object after injecting it. `SendableMadeValue` carries a made
    // value across tasks.
    struct Header {
        let objectType: Any.Type
        /// The value, valid for the box's lifetime.
        let slot: ValueSlot
        /// The value is a class instance (also when declared as an existential): an early
        /// reference to it is the object itself, not a copy.
        let isReference: Bool
    }

    /// Moves `value` into a new box.
    static func holding<Object>(_ value: consuming Object) -> ValueBox {
        let lines = (max(MemoryLayout<Object>.size, 1) + 63) & ~63
        let isReference = type(of: copy value as Any) is AnyClass
        let box = ValueBox.make(minimumCapacity: lines + 63) { buffer in
            Header(objectType: Object.self, slot: buffer.cacheLineSlot(), isReference: isReference)
        }
        box.fields.slot.initialize(as: Object.self, to: value)
        return box
    }

    deinit {
        let header = fields
        func destroy<Object>(_: Object.Type, in slot: ValueSlot) {
            slot.deinitialize(as: Object.self)
        }
        destroy(header.objectType, in: header.slot)
    }

    /// The header, immutable once the box is made, read without the dynamic exclusivity check
    /// of `ManagedBuffer.header`.
    @inline(__always)
    var fields: Header { immutableHeader }

    var typeID: ObjectIdentifier { ObjectIdentifier(fields.objectType) }
    var slot: ValueSlot { fields.slot }
    var isReference: Bool { fields.isReference }

    var anyValue: Any {
        func value<Object>(_: Object.Type, in slot: ValueSlot) -> Any {
            slot.value(as: Object.self)
        }
        let header = fields
        return value(header.objectType, in: header.slot)
    }

    /// The value's dynamic type.
    var dynamicType: Any.Type {
        // A class reference: read its isa without copying the value out.
        let header = fields
        if header.isReference, header.objectType is AnyObject.Type {
            return header.slot.withObject { type(of: $0) }
        }
        // A struct or an enum is its own dynamic type: no copy into an `Any` (a box of its own
        // for a value over three words) to ask. A value of an existential type is opened so.
        if Runtime.isStructOrEnum(header.objectType) { return header.objectType }
        return type(of: anyValue)
    }

    /// Copies the value into `result`, an empty slot of the box's type.
    func copy(into result: ValueSlot) {
        func copy<Object>(_: Object.Type, from slot: ValueSlot, into result: ValueSlot) {
            result.initialize(as: Object.self, to: slot.value(as: Object.self))
        }
        let header = fields
        copy(header.objectType, from: header.slot, into: result)
    }
}
