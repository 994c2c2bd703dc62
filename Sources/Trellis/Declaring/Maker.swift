/// The type-erased creation closure of one definition.
///
/// A class rather than a closure so that the context can make an object into memory of the
/// caller's type without boxing it in an `Any`: `TypedMaker<Object>` knows `Object`, the caller
/// knows `T`, and one identity comparison of the two types joins them.
class AnyMaker: @unchecked Sendable {
    // Safe: every stored property, here and in the subclass, is an immutable `let` of a
    // `Sendable` type; the class is non-final only so that `TypedMaker<Object>` can specialise it.
    let objectType: Any.Type
    let objectTypeID: ObjectIdentifier

    init(objectType: Any.Type) {
        self.objectType = objectType
        self.objectTypeID = ObjectIdentifier(objectType)
    }

    /// Makes and injects an object of definition `index` of `context`, and moves it into `result`,
    /// which must be uninitialised memory for an `Object`.
    func make(into result: UnsafeMutableRawPointer, _ context: ApplicationContext, _ index: Int, _ stack: CreationStack) throws(ContextError) {
        fatalError("Trellis internal error: AnyMaker.make(into:) must be overridden")
    }

    /// Makes an object (not injected yet) and boxes it for caching as a singleton.
    func makeBox(_ context: ApplicationContext, _ index: Int, _ stack: CreationStack) throws(ContextError) -> AnyBox {
        fatalError("Trellis internal error: AnyMaker.makeBox must be overridden")
    }

    /// Makes and injects an object, returned as `Any` (lookups whose type is not `Object`).
    func makeAny(_ context: ApplicationContext, _ index: Int, _ stack: CreationStack) throws(ContextError) -> Any {
        fatalError("Trellis internal error: AnyMaker.makeAny must be overridden")
    }

    /// Whether the declared type alone proves that every object made is a `T`.
    func declaresKind<T>(of type: T.Type) -> Bool {
        fatalError("Trellis internal error: AnyMaker.declaresKind must be overridden")
    }
}

/// The creation closure of a definition whose objects are `Object`s.
final class TypedMaker<Object>: AnyMaker, @unchecked Sendable {
    // Safe: see `AnyMaker`; `make` is an immutable `@Sendable` closure.
    let make: @Sendable (Resolver) throws -> Object

    init(_ make: @escaping @Sendable (Resolver) throws -> Object) {
        self.make = make
        super.init(objectType: Object.self)
    }

    override func make(into result: UnsafeMutableRawPointer, _ context: ApplicationContext, _ index: Int, _ stack: CreationStack) throws(ContextError) {
        let made = try context.call(make, index, stack)
        try context.injectMade(made, index, stack)
        result.initializeMemory(as: Object.self, to: made)
    }

    override func makeBox(_ context: ApplicationContext, _ index: Int, _ stack: CreationStack) throws(ContextError) -> AnyBox {
        Box(try context.call(make, index, stack))
    }

    override func makeAny(_ context: ApplicationContext, _ index: Int, _ stack: CreationStack) throws(ContextError) -> Any {
        let made = try context.call(make, index, stack)
        try context.injectMade(made, index, stack)
        return made
    }

    override func declaresKind<T>(of type: T.Type) -> Bool { Object.self is T.Type }
}

/// A made singleton, type-erased: its value lives at `pointer`, as the box's `Object` type.
class AnyBox: @unchecked Sendable {
    // Safe: immutable after init. The boxed object itself is the user's: the context only hands
    // out copies of the reference and never reads or writes the object after injecting it.
    let typeID: ObjectIdentifier
    /// The value, of the type identified by `typeID`; valid for the box's lifetime.
    let pointer: UnsafeMutableRawPointer

    init(typeID: ObjectIdentifier, pointer: UnsafeMutableRawPointer) {
        self.typeID = typeID
        self.pointer = pointer
    }

    var anyValue: Any { fatalError("Trellis internal error: AnyBox.anyValue must be overridden") }

    /// Copies the value into `result`, uninitialised memory of the box's type.
    func copy(into result: UnsafeMutableRawPointer) {
        fatalError("Trellis internal error: AnyBox.copy(into:) must be overridden")
    }
}

/// A made singleton of a definition whose objects are `Object`s.
final class Box<Object>: AnyBox, @unchecked Sendable {
    // Safe: see `AnyBox`.
    init(_ value: Object) {
        let storage = UnsafeMutablePointer<Object>.allocate(capacity: 1)
        storage.initialize(to: value)
        super.init(typeID: ObjectIdentifier(Object.self), pointer: UnsafeMutableRawPointer(storage))
    }

    deinit {
        pointer.assumingMemoryBound(to: Object.self).deinitialize(count: 1)
        pointer.deallocate()
    }

    override var anyValue: Any { pointer.assumingMemoryBound(to: Object.self).pointee }

    override func copy(into result: UnsafeMutableRawPointer) {
        result.initializeMemory(as: Object.self, to: pointer.assumingMemoryBound(to: Object.self).pointee)
    }
}
