extension ObjectFactory {
    /// A lazy singleton made on the main actor: for `@MainActor` types (view models,
    /// controllers, and every class of a module built with default main-actor isolation).
    ///
    /// ```swift
    /// createMainActorSingleton("viewModel") { r in ViewModel(api: try r.object("api")) }
    /// ```
    /// The closure is `@MainActor`, so it may call main-actor initialisers without
    /// `MainActor.assumeIsolated`. The object must first be made on the main actor (a lookup from
    /// main-actor code, or a context started there for an eager one); once made it is returned to
    /// any caller like every singleton.
    ///
    /// - Throws (at lookup): ``ContextError/creationFailed(key:path:underlying:)`` with a
    ///   ``MainActorRequired`` error when it would be made on another thread.
    public func createMainActorSingleton<Object>(
        _ key: String, _ make: @escaping @MainActor @Sendable (Resolver) throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .singleton, maker: TypedMaker(MainActorRequired.guarding(key, make)))
    }

    /// A lazy main-actor singleton whose closure needs no other object.
    public func createMainActorSingleton<Object>(
        _ key: String, _ make: @escaping @MainActor @Sendable () throws -> Object
    ) -> Definition {
        createMainActorSingleton(key) { (_: Resolver) in try make() }
    }

    /// An eager singleton made on the main actor when the context starts: start the context on
    /// the main actor.
    public func createMainActorEagerSingleton<Object>(
        _ key: String, _ make: @escaping @MainActor @Sendable (Resolver) throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .eagerSingleton, maker: TypedMaker(MainActorRequired.guarding(key, make)))
    }

    /// An eager main-actor singleton whose closure needs no other object.
    public func createMainActorEagerSingleton<Object>(
        _ key: String, _ make: @escaping @MainActor @Sendable () throws -> Object
    ) -> Definition {
        createMainActorEagerSingleton(key) { (_: Resolver) in try make() }
    }

    /// A prototype made on the main actor: every lookup must come from the main actor.
    public func createMainActorPrototype<Object>(
        _ key: String, _ make: @escaping @MainActor @Sendable (Resolver) throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .prototype, maker: TypedMaker(MainActorRequired.guarding(key, make)))
    }

    /// A main-actor prototype whose closure needs no other object.
    public func createMainActorPrototype<Object>(
        _ key: String, _ make: @escaping @MainActor @Sendable () throws -> Object
    ) -> Definition {
        createMainActorPrototype(key) { (_: Resolver) in try make() }
    }
}
