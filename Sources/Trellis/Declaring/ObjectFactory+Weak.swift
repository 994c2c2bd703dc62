// Weak singletons: shared while anyone holds them (Swinject's `.weak`, Factory's `.shared`).
// The synchronous forms come first, as in ObjectFactory.swift: the type checker tries a call's
// overloads in declaration order.

extension ObjectFactory {
    /// A weak singleton: the context keeps it weakly. While anyone holds it, every lookup
    /// returns the same object; once the last holder lets go, the next lookup makes a new one.
    ///
    /// ```swift
    /// createWeakSingleton("cart") { r in CartModel(store: try r.object("store")) }
    /// ```
    /// For objects shared by whoever is using them at the moment (a view model shared by every
    /// screen showing it). Made once even when many threads and tasks ask at once, and injected
    /// like a singleton. The object must be a class, which the compiler checks. The context does
    /// not own it, so ``ApplicationContext/close()-5gmlg`` does not dispose it (its `deinit` is where
    /// it cleans up). ``ApplicationContext/description`` shows its scope as `weak` and whether
    /// it is alive.
    ///
    /// Thread safety: as every singleton; the last holder may let go while another thread looks
    /// it up (that lookup gets either the object, kept alive, or a new one).
    @inlinable
    public func createWeakSingleton<Object: AnyObject>(
        _ key: String, _ make: @escaping @Sendable (Resolver) throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .weak, maker: Maker(.synchronous(make)))
    }

    /// A weak singleton whose closure needs no other object.
    @inlinable
    public func createWeakSingleton<Object: AnyObject>(
        _ key: String, _ make: @escaping @Sendable () throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .weak, maker: Maker(.independent(make)))
    }

    /// A weak singleton whose closure is async: made by an async lookup (`try await`) when no
    /// one holds it; a synchronous lookup then gets it while it is alive, and throws
    /// ``ContextError/requiresAwait(key:path:)`` otherwise.
    @inlinable
    public func createWeakSingleton<Object: AnyObject>(
        _ key: String, _ make: @escaping @Sendable (Resolver) async throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .weak, maker: Maker(.asynchronous(make)))
    }

    /// An async weak singleton whose closure needs no other object.
    @inlinable
    public func createWeakSingleton<Object: AnyObject>(
        _ key: String, _ make: @escaping @Sendable () async throws -> Object
    ) -> Definition {
        Definition(key: key, scope: .weak, maker: Maker(.asyncIndependent(make)))
    }
}
