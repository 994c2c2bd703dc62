extension ApplicationContext {
    /// The one object, in this context or its parents, whose definition makes a `T` (a protocol,
    /// a superclass, or the type itself).
    ///
    /// Definitions declared to return a `T` (or a subclass) are matched without being made, and
    /// when `T` is a class, those declared as an unrelated class, a struct or an enum are skipped
    /// without being made, as are those declared as a class or another struct or enum when `T`
    /// is a struct or an enum (Docs/Injection.md lists the exceptions); made singletons are checked
    /// as they are; the others are made once to look: lazy singletons as
    /// on first lookup, prototypes as one discarded instance per queried type, made by their
    /// closure only (never injected, so their `didInject` does not run; the answer is kept).
    /// A child's definition shadows a parent's with the same key.
    ///
    /// - Throws: ``ContextError/noSuchObject(key:searched:path:)`` (with the type's name as key
    ///   and an empty path) when none matches, ``ContextError/ambiguousType(type:candidates:)``
    ///   naming every candidate when several do, ``ContextError/requiresAwait(key:path:)``
    ///   naming the first async definition (in declaration order) it would have to make to find
    ///   out, and any error of making the objects it had to make.
    public func object<T>(of type: T.Type) throws(ContextError) -> T {
        do { return try TypeLookup<T>(self).object() } catch { throw error.lookedUp(as: T.self, in: self) }
    }

    /// Every object, in this context then its parents, whose definition makes a `T` (protocols
    /// and superclasses match), own definitions in declaration order first.
    ///
    /// Makes what ``object(of:)-8j4bq`` makes to find out; prototypes in the result are new instances.
    /// Once every singleton involved is made, later calls for the same type reuse where the
    /// first one found them.
    ///
    /// - Throws: any error of making the objects it had to make; ``ContextError/requiresAwait(key:path:)``
    ///   for an async definition it would have to make (use the async form).
    public func objects<T>(of type: T.Type) throws(ContextError) -> [T] {
        do { return try TypeLookup<T>(self).objects() } catch { throw error.lookedUp(as: T.self, in: self) }
    }

    /// ``object(of:)``, making async definitions by awaiting them.
    public func object<T>(of type: T.Type) async throws(ContextError) -> T {
        do { return try await TypeLookup<T>(self).object() } catch { throw error.lookedUp(as: T.self, in: self) }
    }

    /// ``objects(of:)``, making async definitions by awaiting them.
    public func objects<T>(of type: T.Type) async throws(ContextError) -> [T] {
        do { return try await TypeLookup<T>(self).objects() } catch { throw error.lookedUp(as: T.self, in: self) }
    }

    /// The keys of the chain's unshadowed definitions whose declared type satisfies `matches`.
    func unshadowedKeys(declaredAs matches: (ObjectIdentifier) -> Bool) -> [String] {
        TypeLookup<Any>(self).candidates().filter { matches($0.0.records[$0.1].typeID) }.map { $0.0.key(at: $0.1) }
    }

    /// The key of definition `index` as `asker` names it: the key itself where a lookup of it
    /// from `asker` finds this definition (its own, and a parent's that nothing nearer answers
    /// to), else `Context.key` (a parent's definition whose key a nearer context answers to as
    /// an alias: by-type lookups shadow by key only).
    func qualifiedKey(_ index: Int, from asker: ApplicationContext) -> String {
        let key = key(at: index)
        guard self !== asker else { return key }
        if let found = asker.definition(answering: NameTable.lookupKey(key)), found.context === self, found.index == index { return key }
        return "\(name).\(key)"
    }
}
