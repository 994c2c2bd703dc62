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
    @usableFromInline let maker: Maker
    /// How long a context keeps what the definition makes.
    public internal(set) var scope: Scope

    @usableFromInline
    init(key: String, scope: Scope, maker: Maker) {
        self.key = key
        self.scope = scope
        self.explicitAliases = []
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
}
