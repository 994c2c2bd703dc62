/// One named object declaration in a factory: a key, a scope, explicit aliases and a closure.
///
/// Made by `createSingleton`, `createEagerSingleton` and `createPrototype` inside an
/// ``ObjectFactory``. A value: building one has no effect until a context is made from it.
public struct Definition: Sendable {
    // The one-byte scope last: it packs after the maker instead of padding a word, and the
    // two-byte count after it, so a definition is no larger than before `dependsOn` existed (a
    // factory's definitions are copied through the builder: a larger definition, or another
    // reference-counted field, measurably slowed the start of a 10,000-definition context).
    /// The name the definition is looked up by.
    public let key: String
    /// The explicit aliases, then the `dependsOn` names (the last `prerequisiteCount`).
    @usableFromInline var names: [String]
    @usableFromInline let maker: Maker
    /// How long a context keeps what the definition makes.
    public internal(set) var scope: Scope
    /// How many of `names` are `dependsOn` names.
    @usableFromInline var prerequisiteCount: UInt16

    @usableFromInline
    init(key: String, scope: Scope, maker: Maker) {
        self.key = key
        self.scope = scope
        self.names = []
        self.maker = maker
        self.prerequisiteCount = 0
    }

    /// Extra names given with ``aliases(_:)``, in the order written.
    public internal(set) var explicitAliases: [String] {
        get { prerequisiteCount == 0 ? names : Array(names.dropLast(Int(prerequisiteCount))) }
        set { names = newValue + prerequisites }
    }

    /// The names given with ``dependsOn(_:)``, in the order written: the definitions made before
    /// this one.
    public var prerequisites: [String] { prerequisiteCount == 0 ? [] : Array(names.suffix(Int(prerequisiteCount))) }

    /// Whether the definition names others with ``dependsOn(_:)``.
    var hasPrerequisites: Bool { prerequisiteCount != 0 }

    /// `prerequisites` without an array of their own (the names' storage, shared): what a start
    /// checks and a make looks up, for every context made of the factory.
    var prerequisiteNames: ArraySlice<String> { names.suffix(Int(prerequisiteCount)) }

    /// The type the definition's closure is declared to return.
    public var objectType: Any.Type { maker.objectType }

    /// Gives the definition extra names it can be looked up by, as
    /// `createSingleton("mailer") { … }.aliases("mailService")`.
    ///
    /// Aliases follow the uniqueness rules of ``ConfiguratorFromFactory``; a clash is a
    /// ``ContextError`` when the context is configured, not here.
    public func aliases(_ aliases: String...) -> Definition {
        var copy = self
        // Straight into `names`, before any `dependsOn` names: through `explicitAliases` the
        // new names were appended to a copy that the setter then joined with the prerequisites,
        // an array more per call, for every context made of the factory.
        if copy.names.isEmpty {
            copy.names = aliases
        } else {
            copy.names.insert(contentsOf: aliases, at: copy.names.count - Int(prerequisiteCount))
        }
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
        // More than 65,535 names would be absurd; clamped rather than trapping, the excess
        // would read as aliases and fail the configuration as unknown names do.
        let counted = min(keys.count, Int(UInt16.max - prerequisiteCount))
        // The variadic array itself when there are no names yet: one array fewer per
        // definition, for every context made of the factory.
        if copy.names.isEmpty && counted == keys.count {
            copy.names = keys
        } else {
            copy.names += keys.prefix(counted)
        }
        copy.prerequisiteCount += UInt16(counted)
        return copy
    }
}
