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
        _ key: String, _ make: @escaping @Sendable (Resolver) async throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .singleton, maker: TypedMaker(.asynchronous(make)))
    }

    /// An async lazy singleton whose closure needs no other object.
    @inlinable
    public func createSingleton<Object>(
        _ key: String, _ make: @escaping @Sendable () async throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .singleton, maker: TypedMaker(.asyncIndependent(make)))
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
        _ key: String, _ make: @escaping @Sendable (Resolver) async throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .eagerSingleton, maker: TypedMaker(.asynchronous(make)))
    }

    /// An async eager singleton whose closure needs no other object.
    @inlinable
    public func createEagerSingleton<Object>(
        _ key: String, _ make: @escaping @Sendable () async throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .eagerSingleton, maker: TypedMaker(.asyncIndependent(make)))
    }

    /// A prototype whose closure is async: a new instance on every async lookup.
    ///
    /// A synchronous lookup of it always throws ``ContextError/requiresAwait(key:path:)``.
    @inlinable
    public func createPrototype<Object>(
        _ key: String, _ make: @escaping @Sendable (Resolver) async throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .prototype, maker: TypedMaker(.asynchronous(make)))
    }

    /// An async prototype whose closure needs no other object.
    @inlinable
    public func createPrototype<Object>(
        _ key: String, _ make: @escaping @Sendable () async throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .prototype, maker: TypedMaker(.asyncIndependent(make)))
    }
}
