/// How long a context keeps the object a definition makes.
public enum Scope: Sendable, Hashable, CustomStringConvertible {
    /// Made on first lookup or injection, then the same instance for the context's lifetime.
    case singleton
    /// Made when the context starts, in declaration order, then the same instance.
    case eagerSingleton
    /// A new instance on every lookup; the context keeps no reference to it.
    case prototype

    /// `true` for both singleton scopes.
    public var isSingleton: Bool { self != .prototype }

    /// The scope's name as written in a factory: `singleton`, `eagerSingleton`, `prototype`.
    public var description: String {
        switch self {
        case .singleton: "singleton"
        case .eagerSingleton: "eagerSingleton"
        case .prototype: "prototype"
        }
    }
}
