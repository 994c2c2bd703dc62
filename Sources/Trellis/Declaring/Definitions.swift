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

    var definitions: [Definition]
    var aliasDeclarations: [AliasDeclaration]

    /// An empty group.
    public init() {
        definitions = []
        aliasDeclarations = []
    }

    init(_ definition: Definition) {
        definitions = [definition]
        aliasDeclarations = []
    }

    init(aliases: [String], for key: String) {
        definitions = []
        aliasDeclarations = [AliasDeclaration(key: key, aliases: aliases)]
    }

    mutating func append(_ other: Definitions) {
        definitions.append(contentsOf: other.definitions)
        aliasDeclarations.append(contentsOf: other.aliasDeclarations)
    }

    /// Every definition's key, in declaration order (duplicates included: they are rejected when
    /// the definitions are configured, not here).
    public var keys: [String] { definitions.map(\.key) }

    /// The definitions, in declaration order.
    public var all: [Definition] { definitions }

    /// The number of definitions.
    public var count: Int { definitions.count }

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
