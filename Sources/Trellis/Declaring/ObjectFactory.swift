/// A type that declares a context's objects as named definitions.
///
/// ```swift
/// struct AppFactory: ObjectFactory {
///     var definitions: Definitions {
///         createEagerSingleton("clock") { SystemClock() }
///         createSingleton("mailer") { r in Mailer(clock: try r.object("clock")) }
///         createPrototype("request") { r in Request(mailer: try r.object("mailer")) }
///         aliases(for: "mailer", "mailService")
///     }
/// }
/// ```
/// A factory may hold configuration and helper methods and be split over extensions, one
/// `@DefinitionsBuilder var group: Definitions` each. It is evaluated once, by
/// ``ConfiguratorFromFactory``.
public protocol ObjectFactory: Sendable {
    /// Every definition of the factory, in declaration order.
    @DefinitionsBuilder var definitions: Definitions { get }

    /// The name of contexts made from this factory; defaults to the factory's type name.
    var contextName: String { get }
}

extension ObjectFactory {
    /// The factory's type name (as `String(describing:)` writes it, at a fraction of the cost: a
    /// context made per request pays it on every request).
    @inlinable
    public var contextName: String { TypeName.of(Self.self) }

    /// A lazy singleton: made on first lookup or injection, then the same instance for the
    /// context's lifetime.
    ///
    /// Lookups through the ``Resolver`` resolve in the context that owns this definition. What the
    /// closure throws surfaces as ``ContextError/creationFailed(key:path:underlying:)``.
    @inlinable
    public func createSingleton<Object>(
        _ key: String, _ make: @escaping @Sendable (Resolver) throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .singleton, maker: Maker(.synchronous(make)))
    }

    /// A lazy singleton whose closure needs no other object.
    @inlinable
    public func createSingleton<Object>(
        _ key: String, _ make: @escaping @Sendable () throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .singleton, maker: Maker(.independent(make)))
    }

    /// An eager singleton: made when the context starts, in declaration order.
    ///
    /// A failure while making it makes the context's initialiser throw.
    @inlinable
    public func createEagerSingleton<Object>(
        _ key: String, _ make: @escaping @Sendable (Resolver) throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .eagerSingleton, maker: Maker(.synchronous(make)))
    }

    /// An eager singleton whose closure needs no other object.
    @inlinable
    public func createEagerSingleton<Object>(
        _ key: String, _ make: @escaping @Sendable () throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .eagerSingleton, maker: Maker(.independent(make)))
    }

    /// A prototype: a new instance on every lookup; the context keeps no reference to it.
    @inlinable
    public func createPrototype<Object>(
        _ key: String, _ make: @escaping @Sendable (Resolver) throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .prototype, maker: Maker(.synchronous(make)))
    }

    /// A prototype whose closure needs no other object.
    @inlinable
    public func createPrototype<Object>(
        _ key: String, _ make: @escaping @Sendable () throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .prototype, maker: Maker(.independent(make)))
    }

    /// Extra names for `key`, which must be a key of this factory (Reliant's `aliasesForX`).
    ///
    /// An unknown `key` is ``ContextError/aliasOfUnknownKey(alias:key:context:)`` when the
    /// factory is configured.
    public func aliases(for key: String, _ aliases: String...) -> Definitions {
        Definitions(aliases: aliases, for: key)
    }
}

// MARK: - Async closures
//
// Declared after the synchronous forms, in this file, on purpose: the type checker tries the
// overloads of a call in declaration order, and when it meets the synchronous form first, the
// async one (which a synchronous closure also converts to) is dropped early. In the other order,
// a 200-definition builder body took 900 ms to type-check instead of 520 ms (Docs/Performance.md).

extension ObjectFactory {
    /// A lazy singleton whose closure is async: made on first async lookup (`try await`), then
    /// the same instance for the context's lifetime, also for synchronous lookups.
    ///
    /// ```swift
    /// createSingleton("pool") { r in try await DatabasePool.connect(try await r.object("config", as: Config.self)) }
    /// ```
    /// A synchronous lookup before it is made throws ``ContextError/requiresAwait(key:path:)``.
    @inlinable
    public func createSingleton<Object>(
        _ key: String, _ make: @escaping @concurrent @Sendable (Resolver) async throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .singleton, maker: Maker(.asynchronous(make)))
    }

    /// An async lazy singleton whose closure needs no other object.
    @inlinable
    public func createSingleton<Object>(
        _ key: String, _ make: @escaping @concurrent @Sendable () async throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .singleton, maker: Maker(.asyncIndependent(make)))
    }

    /// An eager singleton whose closure is async: made when the context starts with
    /// `try await ApplicationContext(…)`, concurrently with the other async eager singletons.
    ///
    /// ```swift
    /// createEagerSingleton("config") { try await Config.load() }
    /// ```
    /// The synchronous initialiser of a factory that has one throws
    /// ``ContextError/requiresAwait(key:path:)`` before making anything.
    @inlinable
    public func createEagerSingleton<Object>(
        _ key: String, _ make: @escaping @concurrent @Sendable (Resolver) async throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .eagerSingleton, maker: Maker(.asynchronous(make)))
    }

    /// An async eager singleton whose closure needs no other object.
    @inlinable
    public func createEagerSingleton<Object>(
        _ key: String, _ make: @escaping @concurrent @Sendable () async throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .eagerSingleton, maker: Maker(.asyncIndependent(make)))
    }

    /// A prototype whose closure is async: a new instance on every async lookup.
    ///
    /// A synchronous lookup of it always throws ``ContextError/requiresAwait(key:path:)``.
    @inlinable
    public func createPrototype<Object>(
        _ key: String, _ make: @escaping @concurrent @Sendable (Resolver) async throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .prototype, maker: Maker(.asynchronous(make)))
    }

    /// An async prototype whose closure needs no other object.
    @inlinable
    public func createPrototype<Object>(
        _ key: String, _ make: @escaping @concurrent @Sendable () async throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .prototype, maker: Maker(.asyncIndependent(make)))
    }
}

// MARK: - Closures that return nothing
//
// Last, for the same reason as the async forms.

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
        Definition(key: key, scope: .singleton, maker: Maker(.independent(make)))
    }

    /// Rejected: a lazy singleton whose closure returns nothing.
    @available(*, deprecated, message: "this closure returns nothing, so the definition would make `()`; return the object, e.g. `{ print(\"making the clock\"); return SystemClock() }` (a context rejects it with invalidDefinition)")
    @inlinable
    public func createSingleton(_ key: String, _ make: @escaping @concurrent @Sendable () async throws -> Void) -> Definition {
        Definition(key: key, scope: .singleton, maker: Maker(.asyncIndependent(make)))
    }

    /// Rejected: an eager singleton whose closure returns nothing.
    @available(*, deprecated, message: "this closure returns nothing, so the definition would make `()`; return the object, e.g. `{ print(\"making the clock\"); return SystemClock() }` (a context rejects it with invalidDefinition)")
    @inlinable
    public func createEagerSingleton(_ key: String, _ make: @escaping @Sendable () throws -> Void) -> Definition {
        Definition(key: key, scope: .eagerSingleton, maker: Maker(.independent(make)))
    }

    /// Rejected: an eager singleton whose closure returns nothing.
    @available(*, deprecated, message: "this closure returns nothing, so the definition would make `()`; return the object, e.g. `{ print(\"making the clock\"); return SystemClock() }` (a context rejects it with invalidDefinition)")
    @inlinable
    public func createEagerSingleton(_ key: String, _ make: @escaping @concurrent @Sendable () async throws -> Void) -> Definition {
        Definition(key: key, scope: .eagerSingleton, maker: Maker(.asyncIndependent(make)))
    }

    /// Rejected: a prototype whose closure returns nothing.
    @available(*, deprecated, message: "this closure returns nothing, so the definition would make `()`; return the object, e.g. `{ print(\"making the clock\"); return SystemClock() }` (a context rejects it with invalidDefinition)")
    @inlinable
    public func createPrototype(_ key: String, _ make: @escaping @Sendable () throws -> Void) -> Definition {
        Definition(key: key, scope: .prototype, maker: Maker(.independent(make)))
    }

    /// Rejected: a prototype whose closure returns nothing.
    @available(*, deprecated, message: "this closure returns nothing, so the definition would make `()`; return the object, e.g. `{ print(\"making the clock\"); return SystemClock() }` (a context rejects it with invalidDefinition)")
    @inlinable
    public func createPrototype(_ key: String, _ make: @escaping @concurrent @Sendable () async throws -> Void) -> Definition {
        Definition(key: key, scope: .prototype, maker: Maker(.asyncIndependent(make)))
    }

}
