/// Definitions whose closure returns nothing: a forgotten result after a `print`, an `if`
/// without `else`. Such a closure would define an object of type `()`.
///
/// Swift prefers an available generic overload to an unavailable one, so these non-generic
/// overloads cannot turn the mistake into a compile error; they are deprecated instead, which
/// makes the compiler warn with the fix at the line of the definition. Every definition whose
/// closure returns `Void` (these, and closures taking a `Resolver`, which have no such overload
/// because it would turn `{ r in try r.object("clock") }` into a lookup of `()`) is rejected with
/// ``ContextError/invalidDefinition(key:reason:context:)`` when the factory is configured, and
/// reported by `validate`.
extension ObjectFactory {
    /// Rejected: a lazy singleton whose closure returns nothing.
    @available(*, deprecated, message: "this closure returns nothing, so the definition would make `()`; return the object, e.g. `{ print(\"making the clock\"); return SystemClock() }` (a context rejects it with invalidDefinition)")
    @inlinable
    public func createSingleton(_ key: String, _ make: @escaping @Sendable () throws -> Void) -> Definition {
        Definition(key: key, scope: .singleton, maker: TypedMaker(.independent(make)))
    }

    /// Rejected: a lazy singleton whose closure returns nothing.
    @available(*, deprecated, message: "this closure returns nothing, so the definition would make `()`; return the object, e.g. `{ print(\"making the clock\"); return SystemClock() }` (a context rejects it with invalidDefinition)")
    @inlinable
    public func createSingleton(_ key: String, _ make: @escaping @Sendable () async throws -> Void) -> Definition {
        Definition(key: key, scope: .singleton, maker: TypedMaker(.asyncIndependent(make)))
    }

    /// Rejected: an eager singleton whose closure returns nothing.
    @available(*, deprecated, message: "this closure returns nothing, so the definition would make `()`; return the object, e.g. `{ print(\"making the clock\"); return SystemClock() }` (a context rejects it with invalidDefinition)")
    @inlinable
    public func createEagerSingleton(_ key: String, _ make: @escaping @Sendable () throws -> Void) -> Definition {
        Definition(key: key, scope: .eagerSingleton, maker: TypedMaker(.independent(make)))
    }

    /// Rejected: an eager singleton whose closure returns nothing.
    @available(*, deprecated, message: "this closure returns nothing, so the definition would make `()`; return the object, e.g. `{ print(\"making the clock\"); return SystemClock() }` (a context rejects it with invalidDefinition)")
    @inlinable
    public func createEagerSingleton(_ key: String, _ make: @escaping @Sendable () async throws -> Void) -> Definition {
        Definition(key: key, scope: .eagerSingleton, maker: TypedMaker(.asyncIndependent(make)))
    }

    /// Rejected: a prototype whose closure returns nothing.
    @available(*, deprecated, message: "this closure returns nothing, so the definition would make `()`; return the object, e.g. `{ print(\"making the clock\"); return SystemClock() }` (a context rejects it with invalidDefinition)")
    @inlinable
    public func createPrototype(_ key: String, _ make: @escaping @Sendable () throws -> Void) -> Definition {
        Definition(key: key, scope: .prototype, maker: TypedMaker(.independent(make)))
    }

    /// Rejected: a prototype whose closure returns nothing.
    @available(*, deprecated, message: "this closure returns nothing, so the definition would make `()`; return the object, e.g. `{ print(\"making the clock\"); return SystemClock() }` (a context rejects it with invalidDefinition)")
    @inlinable
    public func createPrototype(_ key: String, _ make: @escaping @Sendable () async throws -> Void) -> Definition {
        Definition(key: key, scope: .prototype, maker: TypedMaker(.asyncIndependent(make)))
    }

}
