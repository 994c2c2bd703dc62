/// How long a context keeps the object a definition makes.
public enum Scope: Sendable, Hashable, CustomStringConvertible {
    /// Made on first lookup or injection, then the same instance for the context's lifetime.
    case singleton
    /// Made when the context starts, in declaration order, then the same instance.
    case eagerSingleton
    /// A new instance on every lookup; the context keeps no reference to it.
    case prototype
    /// Kept weakly (`createWeakSingleton`): the same instance while anyone holds it, a new one
    /// once it was freed; never disposed by the context.
    case weak

    /// `true` for the scopes that share one instance between lookups: both singleton scopes,
    /// and `weak` (while the instance is alive).
    public var isSingleton: Bool { self != .prototype }

    /// The scope's name: `singleton`, `eagerSingleton`, `prototype`, `weak`.
    public var description: String {
        switch self {
        case .singleton: "singleton"
        case .eagerSingleton: "eagerSingleton"
        case .prototype: "prototype"
        case .weak: "weak"
        }
    }
}
