/// A made singleton as the engine hands it around: an instance of a class type by its own
/// reference, any other value in a `ValueBox`.
///
/// Most singletons are instances of a class type, and a context made per request makes several:
/// each would otherwise cost a box (an allocation, its header, its release) for a value that is
/// one reference. Such an object is published in its definition's cell (`RecordBuffer.cells`),
/// which lookups read as they read a box's value.
struct MadeValue {
    // Two words, not an enum of the two kinds: an enum's copy and destroy go through outlined
    // functions that switch over its cases (about 25 instructions each, 33 per request context);
    // a struct of one reference is retained and released inline.

    /// What keeps the value alive: the object itself, or its box. Held by the definition's
    /// state; released after the lock (the object's `deinit` is user code).
    let owner: AnyObject
    /// The declared class type when `owner` is an instance of it; `nil` when `owner` is the
    /// `ValueBox` holding the value.
    private let declaredClass: Any.Type?

    private init(object: AnyObject, declared: Any.Type) {
        owner = object
        declaredClass = declared
    }

    private init(box: ValueBox) {
        owner = box
        declaredClass = nil
    }

    /// The box holding a value that is not an instance of a class type.
    private var box: ValueBox {
        // Unchecked: `owner` is a `ValueBox` whenever `declaredClass` is `nil` (`init(box:)` is
        // the only way to make one so).
        unsafeDowncast(owner, to: ValueBox.self)
    }

    /// Takes `value`, made by a definition declaring `Object` (a class type when `isClassType`).
    static func holding<Object>(_ value: consuming Object, isClassType: Bool) -> MadeValue {
        guard isClassType else { return MadeValue(box: ValueBox.holding(value)) }
        // A class type's value is one strong reference: moved through a slot as the object it
        // is, without a dynamic cast.
        // (A copy: the closure cannot consume `value`; an `Optional<Object>` to move it through
        // would ask the runtime for its metadata, unspecialised here.)
        let object = ValueSlot.making(AnyObject.self) { $0.initialize(as: Object.self, to: copy value) }
        return MadeValue(object: object, declared: Object.self)
    }

    /// Runs `make` (the closure of a definition declaring `Object`, a class type when
    /// `isClassType`) and holds what it returns: a class type's object is returned straight into
    /// the reference that holds it, where `holding` must copy a value it was passed (a retain and
    /// a release through the value witnesses of an unspecialised `Object`, for every singleton a
    /// context per request makes).
    @inline(__always)
    static func making<Object>(_: Object.Type, isClassType: Bool, _ make: () throws(ContextError) -> Object) throws(ContextError) -> MadeValue {
        guard isClassType else { return MadeValue(box: ValueBox.holding(try make())) }
        let object = try ValueSlot.making(AnyObject.self) { slot throws(ContextError) in slot.initialize(as: Object.self, to: try make()) }
        return MadeValue(object: object, declared: Object.self)
    }

    /// The class instance made, for a definition of a class type; `nil` for a value in a box.
    var classInstance: AnyObject? {
        declaredClass == nil ? nil : owner
    }

    /// The declared type's identity.
    var typeID: ObjectIdentifier {
        if let declaredClass { return ObjectIdentifier(declaredClass) }
        return box.typeID
    }

    /// The value is a class instance (also when declared as an existential): an early reference
    /// to it is the object itself, not a copy.
    var isReference: Bool {
        declaredClass != nil || box.isReference
    }

    /// The value, as an `Any`.
    var anyValue: Any {
        declaredClass == nil ? box.anyValue : owner
    }

    /// The value's dynamic type.
    var dynamicType: Any.Type {
        declaredClass == nil ? box.dynamicType : type(of: owner)
    }

    /// Copies the value into `result`, an empty slot of the declared type.
    func copy(into result: ValueSlot) {
        // A class type's slot holds one reference, written as the object it is.
        if declaredClass != nil { result.initialize(as: AnyObject.self, to: owner) } else { box.copy(into: result) }
    }

    /// A copy of the value as a `T`, the declared type.
    func value<T>(as type: T.Type) -> T {
        // A class type's reference is read as the `T` it is: the generic temporary would cost an
        // unspecialised caller (an async lookup's slow path) `Optional<T>`'s metadata from the
        // runtime, about 900 instructions per object.
        if declaredClass != nil { return ValueSlot.reference(owner, as: T.self) }
        return boxedValue(as: T.self)
    }

    /// `value(as:)` of a boxed value. Apart: the generic temporary's metadata is asked for on
    /// entry to the function that has it, whichever branch runs.
    @inline(never)
    private func boxedValue<T>(as type: T.Type) -> T {
        ValueSlot.making(T.self) { copy(into: $0) }
    }

    /// Runs `body` with the value in a slot of the declared type, to inject it in place: the
    /// box's own, or (a class instance, injected through its reference) a temporary one.
    func withSlot<R, Failure: Error>(_ body: (ValueSlot) throws(Failure) -> R) throws(Failure) -> R {
        guard declaredClass != nil else { return try body(box.slot) }
        return try ValueSlot.withTemporary(for: AnyObject.self) { slot throws(Failure) -> R in
            slot.initialize(as: AnyObject.self, to: owner)
            defer { slot.deinitialize(as: AnyObject.self) }
            return try body(slot)
        }
    }

    /// `withSlot` for an async injection, whose slot must outlive a suspension: a heap slot for
    /// a class instance's reference.
    func withSlot<R, Failure: Error>(_ body: (ValueSlot) async throws(Failure) -> R) async throws(Failure) -> R {
        guard declaredClass != nil else { return try await body(box.slot) }
        let slot = ValueSlot.allocate(for: AnyObject.self)
        slot.initialize(as: AnyObject.self, to: owner)
        defer {
            slot.deinitialize(as: AnyObject.self)
            slot.deallocate()
        }
        return try await body(slot)
    }

    /// Whether `slot`, a definition's published value, is this value: the cell refers to this
    /// object, or the slot is this box's. Another value there is another making's.
    func isPublished(at slot: ValueSlot) -> Bool {
        declaredClass == nil ? box.slot.rawValue == slot.rawValue : slot.holdsFirst(owner)
    }

    /// The slot lookups read once the value is published: the box's, or cell `index` of
    /// `cells` (empty until now), which then refers to the object (kept alive by whoever keeps
    /// this value: the definition's state). Called with the lock held, or in a lock-free
    /// owner's publication window (`SingletonSlot.closePublicationWindow`).
    func published(in cells: HeapBuffer<Unretained<AnyObject>>, at index: Int) -> ValueSlot {
        guard declaredClass != nil else { return box.slot }
        cells.initialize(index, to: Unretained(owner))
        return cells.slot(at: index)
    }
}
