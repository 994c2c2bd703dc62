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

    // MARK: Async closures
    //
    // Last in the file, as in ObjectFactory.swift: a closure without `await` picks the
    // synchronous overloads above.

    /// A lazy main-actor singleton whose closure is async: made on first async lookup
    /// (`try await`), which hops to the main actor to run the closure.
    ///
    /// ```swift
    /// createMainActorSingleton("editor") { r in EditorModel(notes: try await r.object("notes")) }
    /// ```
    /// Like every async definition, a synchronous lookup before it is made throws
    /// ``ContextError/requiresAwait(key:path:)``; once made, it is returned to any caller.
    @inlinable
    public func createMainActorSingleton<Object>(
        _ key: String, _ make: @escaping @MainActor @Sendable (Resolver) async throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .singleton, maker: Maker(.mainActorAsync(make)))
    }

    /// An async lazy main-actor singleton whose closure needs no other object.
    @inlinable
    public func createMainActorSingleton<Object>(
        _ key: String, _ make: @escaping @MainActor @Sendable () async throws -> Object
    ) -> Definition {
        createMainActorSingleton(key) { (_: Resolver) async throws -> Object in try await make() }
    }

    /// An eager main-actor singleton whose closure is async: made by `try await
    /// ApplicationContext(…)` (concurrently with the other async eager singletons, the closure on
    /// the main actor); the synchronous initialiser throws ``ContextError/requiresAwait(key:path:)``.
    @inlinable
    public func createMainActorEagerSingleton<Object>(
        _ key: String, _ make: @escaping @MainActor @Sendable (Resolver) async throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .eagerSingleton, maker: Maker(.mainActorAsync(make)))
    }

    /// An async eager main-actor singleton whose closure needs no other object.
    @inlinable
    public func createMainActorEagerSingleton<Object>(
        _ key: String, _ make: @escaping @MainActor @Sendable () async throws -> Object
    ) -> Definition {
        createMainActorEagerSingleton(key) { (_: Resolver) async throws -> Object in try await make() }
    }

    /// A main-actor prototype whose closure is async: a new instance on every async lookup; a
    /// synchronous lookup always throws ``ContextError/requiresAwait(key:path:)``.
    @inlinable
    public func createMainActorPrototype<Object>(
        _ key: String, _ make: @escaping @MainActor @Sendable (Resolver) async throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .prototype, maker: Maker(.mainActorAsync(make)))
    }

    /// An async main-actor prototype whose closure needs no other object.
    @inlinable
    public func createMainActorPrototype<Object>(
        _ key: String, _ make: @escaping @MainActor @Sendable () async throws -> Object
    ) -> Definition {
        createMainActorPrototype(key) { (_: Resolver) async throws -> Object in try await make() }
    }
}
