/// A definition's closure with its object type erased: the bits of the `DefinitionClosure` it
/// was made from, given back only as that `DefinitionClosure<Object>`.
///
/// A value, so a definition needs no object of its own (Docs/DESIGN.md, "A definition is a
/// value"). Sound because every `DefinitionClosure<Object>` has the same layout whatever
/// `Object` is: each case holds one function value, two words whatever it returns. Only the
/// whole enum is reinterpreted, never a function value read out of it: a function read out as
/// returning `Erased` would be re-wrapped by the compiler for its concrete result type.
@usableFromInline
struct ErasedClosure: Sendable {
    /// Stands for the erased object type; never instantiated.
    @usableFromInline
    enum Erased {}

    /// The bits of the closure, as a `DefinitionClosure` whose object type is never made: only
    /// read by `restored(as:)`.
    @usableFromInline let closure: DefinitionClosure<Erased>

    /// Erases `closure`'s object type.
    @inlinable @inline(__always)
    init<Object>(_ closure: DefinitionClosure<Object>) {
        self.closure = unsafeBitCast(closure, to: DefinitionClosure<Erased>.self)
    }

    /// The closure as it was declared: `Object` must be the type it was made with (the
    /// definition's declared type, `Maker.objectType`). A copy: one retain of its context.
    @inline(__always)
    func restored<Object>(as _: Object.Type) -> DefinitionClosure<Object> {
        unsafeBitCast(closure, to: DefinitionClosure<Object>.self)
    }
}
