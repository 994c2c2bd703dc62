import Synchronization

/// The memory of one value whose type the code on both sides knows and the code in between does
/// not: a lookup's result, which the caller's inlined, specialised code allocates for its `T`
/// and the engine (not generic: Docs/DESIGN.md, "The hot path") fills; a made singleton's value
/// in its box, which lookups copy out; an object being injected in place.
///
/// A slot knows neither its type nor whether it holds a value: each operation names the type,
/// which must be the type of the value (or, where it says so, of any class), and the caller
/// keeps track of what the slot holds. That is the price of passing values between generic and
/// non-generic code without metadata lookups, boxing or reference counting.
@usableFromInline
struct ValueSlot {
    // The address of the value's memory: valid for as long as whoever provides the slot says
    // (a temporary for the call, a box for its lifetime, an allocation until `deallocate()`).
    // Read outside the unsafe files only to hand it to the public `_wrap`, which takes raw
    // addresses (`OptionalOfDeclaredType`).
    @usableFromInline let rawValue: UnsafeMutableRawPointer

    /// The slot at `rawValue`, memory for a value whose type the caller knows.
    @inlinable @inline(__always)
    init(rawValue: UnsafeMutableRawPointer) { self.rawValue = rawValue }

    /// The slot of the value at `address`, which is only read through it.
    @inlinable @inline(__always)
    init(reading address: UnsafeRawPointer) { rawValue = .init(mutating: address) }

    /// The memory as a `T`, which must be the type the slot is for: every operation below goes
    /// through here. Visible to other files only because the inlinable operations use it; they
    /// use the operations.
    @inlinable @inline(__always)
    func typed<T>(_: T.Type) -> UnsafeMutablePointer<T> { rawValue.assumingMemoryBound(to: T.self) }

    /// The value, a `T`, in place: read without copying it out, written without moving it.
    @inlinable
    subscript<T>(as type: T.Type) -> T {
        @inline(__always) unsafeAddress { UnsafePointer(typed(T.self)) }
        @inline(__always) nonmutating unsafeMutableAddress { typed(T.self) }
    }

    /// Moves `value`, a `T`, into the slot, which must not hold one. The type is named rather
    /// than inferred: inferred from an argument of existential type (an `Any`), it would be the
    /// opened dynamic type, and the slot would hold that instead of the existential.
    @inlinable @inline(__always)
    func initialize<T>(as _: T.Type, to value: consuming T) { typed(T.self).initialize(to: value) }

    /// A copy of the value, a `T` (a class reference may be read as `AnyObject`).
    @inlinable @inline(__always)
    func value<T>(as _: T.Type) -> T { typed(T.self).pointee }

    /// Moves the value, a `T`, out of the slot, which holds none afterwards.
    @inlinable @inline(__always)
    func move<T>(as _: T.Type) -> T { typed(T.self).move() }

    /// Destroys the value, a `T` (a class reference may be released as `AnyObject`); the slot
    /// holds none afterwards.
    @inline(__always)
    func deinitialize<T>(as _: T.Type) { typed(T.self).deinitialize(count: 1) }

    /// Runs `body` with the object the value references, at +0: the value is a single strong
    /// reference (its type is a class), read as the reference it is without retaining it: the
    /// slot's owner keeps it alive.
    @inline(__always)
    func withObject<R>(_ body: (AnyObject) -> R) -> R { rawValue.load(as: Unretained<AnyObject>.self).with(body) }

    // MARK: A class instance as another type

    /// `object` as a `T`, its class type (a made singleton's declared type): a copy of the
    /// reference, read where it lies rather than moved through a generic temporary.
    @inline(__always)
    static func reference<T>(_ object: AnyObject, as _: T.Type) -> T {
        withUnsafePointer(to: object) { ValueSlot(reading: $0).value(as: T.self) }
    }

    /// Whether the value here (converted from `object`) holds `object` as its first word, the
    /// way a class reference, `AnyObject`, a class-bound existential and an existential's inline
    /// buffer hold a class instance.
    func holdsFirst(_ object: AnyObject) -> Bool {
        rawValue.load(as: UInt.self) == UInt(bitPattern: ObjectIdentifier(object))
    }

    /// A copy of the `byteCount` bytes here on the heap with the first word zeroed: the value
    /// with its one reference taken out (the rest is type-level: metadata, witness tables, an
    /// unused inline buffer). Holds nothing, so it is never destroyed; it lives as long as the
    /// process (`ObjectCast`).
    func hollowCopy(byteCount: Int) -> ValueSlot {
        let copy = ValueSlot(rawValue: .allocate(byteCount: byteCount, alignment: MemoryLayout<UInt>.alignment))
        copy.rawValue.copyMemory(from: rawValue, byteCount: byteCount)
        copy.rawValue.storeBytes(of: 0, as: UInt.self)
        return copy
    }

    /// Initialises the memory here with `template`'s `byteCount` bytes (a `hollowCopy`) and
    /// `object`, retained, as the first word: the conversion `template` was taken from, made
    /// for another instance of the same class.
    func initialize(from template: ValueSlot, byteCount: Int, holding object: AnyObject) {
        rawValue.copyMemory(from: template.rawValue, byteCount: byteCount)
        initialize(as: AnyObject.self, to: object)
    }

    // MARK: Making slots

    /// Runs `body` with a temporary slot for a `T` on the stack; `body` leaves it empty (it never
    /// filled it, or moved the value out).
    @inlinable @inline(__always)
    static func withTemporary<T, R, Failure: Error>(for _: T.Type, _ body: (ValueSlot) throws(Failure) -> R) throws(Failure) -> R {
        try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer throws(Failure) -> R in
            try body(ValueSlot(rawValue: .init(buffer.baseAddress!)))
        }
    }

    /// Runs `fill`, which must leave a `T` in the temporary slot it is given, and returns that
    /// `T`, moved out.
    ///
    /// Not the temporary returning the `T` from its body: with a throwing body, that carries the
    /// value out through a `Result` it copies and then destroys through the generic value
    /// witness table (a retain, a release and two witness calls per lookup). A `Void` body's
    /// `Result` is trivial, and the value is moved out instead of copied.
    @inlinable @inline(__always)
    static func making<T, Failure: Error>(_ type: T.Type, _ fill: (ValueSlot) throws(Failure) -> Void) throws(Failure) -> T {
        var moved: T?
        try withTemporary(for: T.self) { slot throws(Failure) in
            try fill(slot)
            moved = slot.move(as: T.self)
        }
        return moved.take().unsafelyUnwrapped
    }

    /// A slot for a `T` on the heap, empty, until `deallocate()`: for a value kept across a
    /// suspension or for the life of an object.
    static func allocate<T>(for _: T.Type) -> ValueSlot {
        ValueSlot(rawValue: .allocate(byteCount: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment))
    }

    /// A slot on the heap holding `value`, a `T`: its owner deinitializes and deallocates it.
    @usableFromInline
    static func holding<T>(_ value: consuming T) -> ValueSlot {
        let slot = allocate(for: T.self)
        slot.initialize(as: T.self, to: value)
        return slot
    }

    /// Frees a slot made by `allocate(for:)`, empty.
    @usableFromInline
    func deallocate() { rawValue.deallocate() }
}

// A made singleton is published in an atomic (`DefinitionRecord.published`), through the
// standard library's conformances of the raw value.
extension ValueSlot: RawRepresentable, AtomicRepresentable, AtomicOptionalRepresentable {}
