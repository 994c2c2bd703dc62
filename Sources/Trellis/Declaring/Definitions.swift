/// An ordered group of definitions and alias declarations: what a factory's body evaluates to.
///
/// Inspectable without building a context, so a test can check a factory's shape:
/// ```swift
/// let definitions = AppFactory().definitions
/// #expect(definitions.keys.contains("mailer"))
/// #expect(definitions.scope(of: "clock") == .eagerSingleton)
/// ```
public struct Definitions: Sendable {
    /// `aliases(for:_:)` entries, kept apart because the key they name may be declared later or
    /// in another group.
    struct AliasDeclaration: Sendable {
        let key: String
        let aliases: [String]
    }

    /// One definition is kept inline: a builder body makes a group per statement, and a factory
    /// generated with `for` would otherwise allocate an array per definition before flattening.
    /// The alias declarations live in the `many` case, the only one with room for them: a group
    /// that is a single enum is taken apart by the builder without anything left to destroy (a
    /// separate array field was destroyed after every statement's definition had been moved out).
    enum Storage: Sendable {
        case none
        case one(Definition)
        case many([Definition], aliasDeclarations: [AliasDeclaration])
    }

    var storage: Storage

    /// An empty group.
    public init() {
        storage = .none
    }

    init(_ definition: Definition) {
        storage = .one(definition)
    }

    /// A group of `definitions`, without alias declarations.
    init(_ definitions: consuming [Definition]) {
        storage = .many(definitions, aliasDeclarations: [])
    }

    /// Whether the group is one definition: a statement of a builder body that is a `Definition`.
    var isSingle: Bool {
        if case .one = storage { true } else { false }
    }

    /// The group's one definition, moved out; the group must be `isSingle`.
    consuming func single() -> Definition {
        // `self` is consumed, so its storage is moved out, not copied.
        switch storage {
        case let .one(definition): definition
        case .none, .many: preconditionFailure("Definitions.single() on a group that is not one definition: a bug in Trellis's builder (every caller checks isSingle first); please report it")
        }
    }

    init(aliases: [String], for key: String) {
        storage = .many([], aliasDeclarations: [AliasDeclaration(key: key, aliases: aliases)])
    }

    /// The definitions, in declaration order.
    var definitions: [Definition] {
        switch storage {
        case .none: []
        case let .one(definition): [definition]
        case let .many(definitions, _): definitions
        }
    }

    /// The definitions and the alias declarations, moved out of the group (reading them through
    /// `definitions` and `aliasDeclarations` would copy the group's storage, then destroy it).
    consuming func split() -> (definitions: [Definition], aliasDeclarations: [AliasDeclaration]) {
        switch storage {
        case .none: ([], [])
        case let .one(definition): ([definition], [])
        case let .many(definitions, declarations): (definitions, declarations)
        }
    }

    /// The `aliases(for:_:)` entries, in declaration order.
    var aliasDeclarations: [AliasDeclaration] {
        if case let .many(_, declarations) = storage { declarations } else { [] }
    }

    /// Concatenates groups in order, allocating once.
    static func joined(_ groups: [Definitions]) -> Definitions {
        if groups.count == 1 { return groups[0] }
        var joiner = Joiner(capacity: groups.reduce(0) { $0 + $1.count })
        // By index, not `for group in groups`: each group would be copied once more.
        for position in groups.indices { joiner.append(groups[position]) }
        return joiner.joined()
    }

    /// Concatenates groups in order, moving their definitions out of `groups` instead of
    /// copying them (a copy retains each definition's closure: a factory of 10,000 definitions
    /// built with `for` would pay 10,000 retains and releases more).
    static func joined(consuming groups: consuming [Definitions]) -> Definitions {
        var groups = groups
        if groups.count == 1 { return groups.removeLast() }
        var joiner = Joiner(capacity: groups.reduce(0) { $0 + $1.count })
        for position in groups.indices { joiner.append(movingFrom: &groups[position]) }
        return joiner.joined()
    }

    /// Concatenates a fixed number of groups in order, moving each group's definitions in: for
    /// `buildBlock`, whose statements would otherwise be gathered into an array of groups first
    /// (an allocation, and a destroy of every emptied group, per body evaluated: a context made
    /// per request evaluates its factory every time).
    struct Joiner {
        private var definitions: [Definition] = []
        private var declarations: [AliasDeclaration] = []

        init(capacity: Int) { definitions.reserveCapacity(capacity) }

        mutating func append(_ group: consuming Definitions) {
            append(group.storage)
        }

        /// Appends `group`'s definitions and leaves it empty.
        mutating func append(movingFrom group: inout Definitions) {
            var storage = Storage.none
            swap(&storage, &group.storage)
            append(storage)
        }

        private mutating func append(_ storage: consuming Storage) {
            // Consumed, so the definition moves into the array instead of being copied.
            switch consume storage {
            case .none: break
            case let .one(definition): definitions.append(definition)
            case let .many(more, moreDeclarations):
                definitions.append(contentsOf: more)
                if !moreDeclarations.isEmpty { declarations.append(contentsOf: moreDeclarations) }
            }
        }

        consuming func joined() -> Definitions {
            var result = Definitions()
            result.storage = .many(definitions, aliasDeclarations: declarations)
            return result
        }
    }

    /// Every definition's key, in declaration order (duplicates included: they are rejected when
    /// the definitions are configured, not here).
    public var keys: [String] { definitions.map(\.key) }

    /// The definitions, in declaration order.
    public var all: [Definition] { definitions }

    /// The number of definitions.
    public var count: Int {
        switch storage {
        case .none: 0
        case .one: 1
        case let .many(definitions, _): definitions.count
        }
    }

    /// The scope of the first definition with `key`, or `nil` if none has it.
    public func scope(of key: String) -> Scope? {
        definitions.first { $0.key == key }?.scope
    }

    /// The explicit aliases of `key`: those given with `.aliases(_:)` and with
    /// `aliases(for:_:)`, in declaration order. Default aliases are not listed.
    public func aliases(of key: String) -> [String] {
        var result = definitions.filter { $0.key == key }.flatMap(\.explicitAliases)
        for declaration in aliasDeclarations where declaration.key == key {
            result.append(contentsOf: declaration.aliases)
        }
        return result
    }
}
