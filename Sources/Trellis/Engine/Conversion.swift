/// A made singleton as a type other than its declared one (a protocol it adopts, a superclass,
/// `AnyObject`), converted once and kept beside the singleton, so that a lookup or an `@Inject`
/// property asking for that type again copies it out instead of casting: a dynamic cast to a
/// protocol asks the runtime for the conformance and for the optional's metadata (about 1,200
/// instructions, several times the lookup itself).
///
/// The conversions of a singleton are a list in its record (`DefinitionRecord.conversions`),
/// pushed without a lock; each node is immutable once pushed. The record frees the list with the
/// context, so a conversion holds the singleton exactly as long as the context does. A conversion
/// through a conformance isolated to a global actor is never kept: the cast succeeds only on that
/// actor, and a kept value would hand it out anywhere.
final class Conversion: @unchecked Sendable {
    // Safe: both fields are written in `init` and never again; the boxed value is only copied out.
    let converted: ValueBox
    let next: Conversion?

    init(_ converted: ValueBox, next: Conversion?) {
        self.converted = converted
        self.next = next
    }
}

/// A made singleton that is not of the type asked for here.
struct NotConvertible: Error {}

extension DefinitionRecord {
    /// The made singleton, whose published value is `made`, as a `T`: a kept conversion copied,
    /// else converted now (and kept, unless the conformance is isolated).
    ///
    /// Thread-safe: readers walk the list without a lock; two threads converting at once both
    /// cast, and the one whose push loses drops its node. Returns the `T` itself, never a
    /// `T?`: in this unspecialised code an optional of `T` would fetch its metadata on every
    /// call (about 450 instructions).
    ///
    /// - Throws: `NotConvertible` when the singleton is not a `T` here.
    func converted<T>(_ made: ValueSlot, as _: T.Type) throws(NotConvertible) -> T {
        let head = conversions.load(ordering: .acquiring)
        if let kept = Self.conversion(to: ObjectIdentifier(T.self), from: head) {
            return kept.with { $0.converted.slot.value(as: T.self) }
        }
        return try convertFirst(made, as: T.self, after: head)
    }

    /// What a lookup of the made singleton (its published value `made`) as the type `type`
    /// identifies answers: the value itself when declared so, else its kept conversion to that
    /// type, else the singleton for the caller to convert.
    @inline(__always)
    func outcome(ofMade made: ValueSlot, as type: ObjectIdentifier) -> ApplicationContext.Outcome {
        if typeID == type { return .made(made) }
        return keptConversion(to: type).map(ApplicationContext.Outcome.made) ?? .convertible(made, typeID)
    }

    /// Where the made singleton's kept conversion to the type `type` identifies lies: a slot of
    /// that type, valid as long as the context (its record keeps the list); `nil` when there is
    /// none yet. Not generic: a lookup's non-generic part, or an injection route, hands the slot
    /// on as a made value, which the caller's code, specialised for the type, copies out (the
    /// box's own copy goes through the type's value witnesses).
    @inline(__always)
    func keptConversion(to type: ObjectIdentifier) -> ValueSlot? {
        // Inlined up to the empty list's check: a lookup as an optional of the declared type
        // (converted by the caller, never kept) pays one load.
        guard let head = conversions.load(ordering: .acquiring) else { return nil }
        return Self.keptConversion(from: head, to: type)
    }

    @inline(never)
    private static func keptConversion(from head: Unretained<Conversion>, to type: ObjectIdentifier) -> ValueSlot? {
        conversion(to: type, from: head)?.with { $0.converted.slot }
    }

    /// The kept conversion to the type `type` identifies, in the list from `head`.
    @inline(__always)
    private static func conversion(to type: ObjectIdentifier, from head: Unretained<Conversion>?) -> Unretained<Conversion>? {
        var node = head
        while let current = node {
            if current.with({ $0.converted.typeID == type }) { return current }
            node = current.with { $0.next.map(Unretained.init) }
        }
        return nil
    }

    /// The first conversion of the singleton to `T`: cast, and kept when that is safe. An
    /// instance of a class type is cast by `ObjectCast`, which learns the pair once: a context
    /// made per request converts its singletons without the runtime.
    @inline(never)
    private func convertFirst<T>(_ made: ValueSlot, as _: T.Type, after head: Unretained<Conversion>?) throws(NotConvertible) -> T {
        if isClassType {
            let object = made.value(as: AnyObject.self)
            // On the heap, not in a temporary: a throwing closure returning the `T` would carry
            // it out through a `Result`, whose metadata this unspecialised code would fetch.
            let slot = ValueSlot.allocate(for: T.self)
            defer { slot.deallocate() }
            let outcome = ObjectCast.cast(object, to: T.self, into: slot)
            if outcome == .failed { throw NotConvertible() }
            let typed = slot.move(as: T.self)
            if outcome == .keepable || ObjectCast.mayKeep(type(of: object), as: T.self) { keep(typed, after: head) }
            return typed
        }
        return try convertValue(made, as: T.self, after: head)
    }

    /// `convertFirst` for a singleton not of a class type: cast by the runtime. Apart, so the
    /// class path does not fetch `Optional<T>`'s metadata for this cast (the compiler asks for
    /// it on entry).
    @inline(never)
    private func convertValue<T>(_ made: ValueSlot, as _: T.Type, after head: Unretained<Conversion>?) throws(NotConvertible) -> T {
        let value = madeValue(made)
        guard let typed = value as? T else { throw NotConvertible() }
        if ObjectCast.mayKeep(type(of: value), as: T.self) { keep(typed, after: head) }
        return typed
    }

    /// Pushes `typed` on the list of conversions, whose head was `head`; a push that loses to
    /// another thread's is dropped.
    private func keep<T>(_ typed: T, after head: Unretained<Conversion>?) {
        let node = Unretained.retained(Conversion(ValueBox.holding(typed), next: head?.object))
        if conversions.compareExchange(expected: head, desired: node, ordering: .acquiringAndReleasing).exchanged {
            // The new node holds the old head now; the list's own count of it goes.
            head?.release()
        } else {
            node.release()
        }
    }

    /// The made singleton whose published value is `made`, as `Any`.
    func madeValue(_ made: ValueSlot) -> Any {
        func value<Declared>(_: Declared.Type) -> Any { made.value(as: Declared.self) }
        return value(objectType)
    }
}
