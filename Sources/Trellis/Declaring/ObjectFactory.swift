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
    public var contextName: String { _typeName(Self.self, qualified: false) }

    /// A lazy singleton: made on first lookup or injection, then the same instance for the
    /// context's lifetime.
    ///
    /// Lookups through the ``Resolver`` resolve in the context that owns this definition. What the
    /// closure throws surfaces as ``ContextError/creationFailed(key:path:underlying:)``.
    @inlinable
    public func createSingleton<Object>(
        _ key: String, _ make: @escaping @Sendable (Resolver) throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .singleton, maker: TypedMaker(.synchronous(make)))
    }

    /// A lazy singleton whose closure needs no other object.
    @inlinable
    public func createSingleton<Object>(
        _ key: String, _ make: @escaping @Sendable () throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .singleton, maker: TypedMaker(.independent(make)))
    }

    /// An eager singleton: made when the context starts, in declaration order.
    ///
    /// A failure while making it makes the context's initialiser throw.
    @inlinable
    public func createEagerSingleton<Object>(
        _ key: String, _ make: @escaping @Sendable (Resolver) throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .eagerSingleton, maker: TypedMaker(.synchronous(make)))
    }

    /// An eager singleton whose closure needs no other object.
    @inlinable
    public func createEagerSingleton<Object>(
        _ key: String, _ make: @escaping @Sendable () throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .eagerSingleton, maker: TypedMaker(.independent(make)))
    }

    /// A prototype: a new instance on every lookup; the context keeps no reference to it.
    @inlinable
    public func createPrototype<Object>(
        _ key: String, _ make: @escaping @Sendable (Resolver) throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .prototype, maker: TypedMaker(.synchronous(make)))
    }

    /// A prototype whose closure needs no other object.
    @inlinable
    public func createPrototype<Object>(
        _ key: String, _ make: @escaping @Sendable () throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .prototype, maker: TypedMaker(.independent(make)))
    }

    /// Extra names for `key`, which must be a key of this factory (Reliant's `aliasesForX`).
    ///
    /// An unknown `key` is ``ContextError/aliasOfUnknownKey(alias:key:context:)`` when the
    /// factory is configured.
    public func aliases(for key: String, _ aliases: String...) -> Definitions {
        Definitions(aliases: aliases, for: key)
    }
}
