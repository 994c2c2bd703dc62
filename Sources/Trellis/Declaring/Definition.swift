/// One named object declaration in a factory: a key, a scope, explicit aliases and a closure.
///
/// Made by `createSingleton`, `createEagerSingleton` and `createPrototype` inside an
/// ``ObjectFactory``. A value: building one has no effect until a context is made from it.
public struct Definition: Sendable {
    // The one-byte scope last: it packs after the maker instead of padding a word.
    /// The name the definition is looked up by.
    public let key: String
    /// Extra names given with ``aliases(_:)``, in the order written.
    public internal(set) var explicitAliases: [String]
    /// The names given with ``dependsOn(_:)``, in the order written: the definitions made before
    /// this one.
    public internal(set) var prerequisites: [String]
    @usableFromInline let maker: Maker
    /// How long a context keeps what the definition makes.
    public internal(set) var scope: Scope

    @usableFromInline
    init(key: String, scope: Scope, maker: Maker) {
        self.key = key
        self.scope = scope
        self.explicitAliases = []
        self.prerequisites = []
        self.maker = maker
    }

    /// The type the definition's closure is declared to return.
    public var objectType: Any.Type { maker.objectType }

    /// Gives the definition extra names it can be looked up by, as
    /// `createSingleton("mailer") { … }.aliases("mailService")`.
    ///
    /// Aliases follow the uniqueness rules of ``ConfiguratorFromFactory``; a clash is a
    /// ``ContextError`` when the context is configured, not here.
    public func aliases(_ aliases: String...) -> Definition {
        var copy = self
        copy.explicitAliases.append(contentsOf: aliases)
        return copy
    }

    /// Makes the named definitions before this one, and disposes this one before them, without
    /// this one holding a reference to them, as
    /// `createEagerSingleton("server") { … }.dependsOn("migrations")`.
    ///
    /// Each name is a key or alias of this context or a parent. Before this definition's closure
    /// runs, each named object is looked up as if the closure had looked it up and dropped the
    /// result: through the same resolution path, so a cycle is
    /// ``ContextError/circularDependency(path:)``, an async definition named by a synchronous
    /// one is ``ContextError/requiresAwait(key:path:)`` where a lookup would be, and the
    /// dependency is recorded for the graph and for `close` (this one is disposed first).
    /// Chainable with ``aliases(_:)``.
    ///
    /// - Throws: nothing here; an unknown name makes the context's start throw
    ///   ``ContextError/noSuchObject(key:searched:path:)`` with the path `[key, name]`, and a
    ///   cycle made of `dependsOn` names alone makes it throw `circularDependency`, both before
    ///   anything is made.
    public func dependsOn(_ keys: String...) -> Definition {
        var copy = self
        copy.prerequisites.append(contentsOf: keys)
        return copy
    }
}
