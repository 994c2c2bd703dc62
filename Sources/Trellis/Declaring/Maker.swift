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
    /// The declared type is a class: an object is a single reference.
    let isClassType: Bool

    init(objectType: Any.Type, isClassType: Bool) {
        self.objectType = objectType
        self.objectTypeID = ObjectIdentifier(objectType)
        self.isClassType = isClassType
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

    /// Injects the singleton in `box`, made by this maker, in place.
    func injectBox(_ box: AnyBox, _ context: ApplicationContext, _ index: Int, _ stack: CreationStack) throws(ContextError) {
        fatalError("Trellis internal error: AnyMaker.injectBox must be overridden")
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
    // Safe: see `AnyMaker`; both closures are immutable and `@Sendable`.
    /// The closure of a definition that looks up other objects.
    let make: (@Sendable (Resolver) throws -> Object)?
    /// The closure of a definition that needs no other object: called without building a
    /// `Resolver`, the common case for leaves of the graph.
    let makeIndependent: (@Sendable () throws -> Object)?

    init(_ make: @escaping @Sendable (Resolver) throws -> Object) {
        self.make = make
        self.makeIndependent = nil
        super.init(objectType: Object.self, isClassType: Object.self is AnyClass)
    }

    init(independent make: @escaping @Sendable () throws -> Object) {
        self.make = nil
        self.makeIndependent = make
        super.init(objectType: Object.self, isClassType: Object.self is AnyClass)
    }

    /// Runs the closure. A `ContextError` from one of its own lookups passes through unchanged
    /// (its path already says where it came from); anything else it throws becomes
    /// `creationFailed` with the path.
    @inline(__always)
    private func run(_ context: ApplicationContext, _ index: Int, _ stack: CreationStack) throws(ContextError) -> Object {
        do {
            if let makeIndependent { return try makeIndependent() }
            return try make!(Resolver(context: context, requester: index))
        } catch let error as ContextError {
            throw error
        } catch {
            throw .creationFailed(key: context.table.keys[index], path: stack.path, underlying: error)
        }
    }

    override func make(into result: UnsafeMutableRawPointer, _ context: ApplicationContext, _ index: Int, _ stack: CreationStack) throws(ContextError) {
        let object = result.initializeMemory(as: Object.self, to: try run(context, index, stack))
        do {
            try context.injectMade(at: object, isClass: isClassType, index, stack)
        } catch {
            object.deinitialize(count: 1)
            throw error
        }
    }

    override func makeBox(_ context: ApplicationContext, _ index: Int, _ stack: CreationStack) throws(ContextError) -> AnyBox {
        Box(try run(context, index, stack))
    }

    override func injectBox(_ box: AnyBox, _ context: ApplicationContext, _ index: Int, _ stack: CreationStack) throws(ContextError) {
        try context.injectMade(at: box.pointer.assumingMemoryBound(to: Object.self), isClass: isClassType, index, stack)
    }

    override func makeAny(_ context: ApplicationContext, _ index: Int, _ stack: CreationStack) throws(ContextError) -> Any {
        let object = UnsafeMutablePointer<Object>.allocate(capacity: 1)
        defer { object.deallocate() }
        object.initialize(to: try run(context, index, stack))
        do {
            try context.injectMade(at: object, isClass: isClassType, index, stack)
        } catch {
            object.deinitialize(count: 1)
            throw error
        }
        return object.move()
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
