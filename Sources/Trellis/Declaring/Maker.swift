/// The type-erased creation closure of one definition.
///
/// A class, not a closure, so the lookup path can recover the typed closure with one identity
/// comparison and `unsafeDowncast` instead of a dynamic cast of an `Any`.
class AnyMaker: @unchecked Sendable {
    // Safe: every stored property, here and in the subclasses, is an immutable `let` of a
    // `Sendable` type; the class is non-final only so that `TypedMaker<Object>` can specialise it.
    let objectType: Any.Type
    let objectTypeID: ObjectIdentifier

    init(objectType: Any.Type) {
        self.objectType = objectType
        self.objectTypeID = ObjectIdentifier(objectType)
    }

    /// Makes the object; rethrows whatever the user's closure throws.
    func makeAny(_ resolver: Resolver) throws -> Any {
        fatalError("Trellis internal error: AnyMaker.makeAny must be overridden")
    }

    /// Whether the declared type alone proves that every object made is a `T`.
    func declaresKind<T>(of type: T.Type) -> Bool {
        fatalError("Trellis internal error: AnyMaker.declaresKind must be overridden")
    }

    /// A box holding `object`, which must have been made by this maker.
    func box(_ object: Any) -> AnyBox {
        fatalError("Trellis internal error: AnyMaker.box must be overridden")
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

    override func makeAny(_ resolver: Resolver) throws -> Any { try make(resolver) }

    override func declaresKind<T>(of type: T.Type) -> Bool { Object.self is T.Type }

    override func box(_ object: Any) -> AnyBox { Box<Object>(object as! Object) }
}

/// A made singleton, type-erased; `Box<Object>` holds it typed.
class AnyBox: @unchecked Sendable {
    // Safe: immutable after init. The boxed object itself is the user's: the context only hands
    // out references to it and never reads or writes it after injection (Docs/Concurrency.md).
    let typeID: ObjectIdentifier
    init(typeID: ObjectIdentifier) { self.typeID = typeID }
    var anyValue: Any { fatalError("Trellis internal error: AnyBox.anyValue must be overridden") }
}

/// A made singleton of a definition whose objects are `Object`s.
final class Box<Object>: AnyBox, @unchecked Sendable {
    // Safe: see `AnyBox`.
    let value: Object
    init(_ value: Object) {
        self.value = value
        super.init(typeID: ObjectIdentifier(Object.self))
    }
    override var anyValue: Any { value }
}
