extension ObjectFactory {
    /// A lazy singleton made on the main actor: for `@MainActor` types (view models,
    /// controllers, and every class of a module built with default main-actor isolation).
    ///
    /// ```swift
    /// createMainActorSingleton("viewModel") { r in ViewModel(api: try r.object("api")) }
    /// ```
    /// The closure is `@MainActor`, so it may call main-actor initialisers without
    /// `MainActor.assumeIsolated`. A synchronous lookup makes it only from main-actor code; an
    /// async lookup (`try await`) hops to the main actor to make it. Once made it is returned to
    /// any caller like every singleton.
    ///
    /// - Throws (at a synchronous lookup off the main actor):
    ///   ``ContextError/creationFailed(key:path:underlying:)`` with a ``MainActorRequired`` error.
    @inlinable
    public func createMainActorSingleton<Object>(
        _ key: String, _ make: @escaping @MainActor @Sendable (Resolver) throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .singleton, maker: Maker(.mainActor(make)))
    }

    /// A lazy main-actor singleton whose closure needs no other object.
    @inlinable
    public func createMainActorSingleton<Object>(
        _ key: String, _ make: @escaping @MainActor @Sendable () throws -> Object
    ) -> Definition {
        createMainActorSingleton(key) { (_: Resolver) in try make() }
    }

    /// An eager singleton made on the main actor when the context starts: start the context on
    /// the main actor, or with `try await` (which hops to the main actor to make it).
    @inlinable
    public func createMainActorEagerSingleton<Object>(
        _ key: String, _ make: @escaping @MainActor @Sendable (Resolver) throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .eagerSingleton, maker: Maker(.mainActor(make)))
    }

    /// An eager main-actor singleton whose closure needs no other object.
    @inlinable
    public func createMainActorEagerSingleton<Object>(
        _ key: String, _ make: @escaping @MainActor @Sendable () throws -> Object
    ) -> Definition {
        createMainActorEagerSingleton(key) { (_: Resolver) in try make() }
    }

    /// A prototype made on the main actor: every synchronous lookup must come from the main
    /// actor; async lookups hop to it.
    @inlinable
    public func createMainActorPrototype<Object>(
        _ key: String, _ make: @escaping @MainActor @Sendable (Resolver) throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .prototype, maker: Maker(.mainActor(make)))
    }

    /// A main-actor prototype whose closure needs no other object.
    @inlinable
    public func createMainActorPrototype<Object>(
        _ key: String, _ make: @escaping @MainActor @Sendable () throws -> Object
    ) -> Definition {
        createMainActorPrototype(key) { (_: Resolver) in try make() }
    }
}
