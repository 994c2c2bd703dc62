/// Collects a factory's definitions once and checks every naming rule, so that a context built
/// from it can only fail while making objects, never because of how they were named.
///
/// ```swift
/// let configurator = try ConfiguratorFromFactory(AppFactory())
/// configurator.keys          // ["clock", "mailer", …]
/// configurator.aliasTable    // ["MAILER": "mailer", "mailService": "mailer", …]
/// let context = try ApplicationContext(configurator: configurator)
/// ```
///
/// Rules, each a ``ContextError`` thrown here: keys are non-empty without leading or trailing
/// whitespace (``ContextError/invalidKey(key:context:)``) and unique
/// (``ContextError/duplicateKey(key:context:)``); every key also answers to its default aliases
/// (`fooBar` → `FOOBAR`, `FooBar` → `fooBar`); every name in a context, key or alias, explicit or
/// generated, is unique (``ContextError/aliasShadowsKey(alias:aliasOf:isGenerated:context:)``,
/// ``ContextError/duplicateAlias(alias:uses:context:)``); `aliases(for:)` names a key of the
/// factory (``ContextError/aliasOfUnknownKey(alias:key:context:)``).
///
/// A value, immutable and `Sendable`: one configurator may start any number of contexts.
public struct ConfiguratorFromFactory: Sendable {
    /// The name of contexts built from this configuration.
    public let contextName: String
    /// The definitions in declaration order, overrides applied.
    public let definitions: [Definition]
    let table: NameTable
    /// Indexes of the eager singletons, in declaration order.
    let eagerDefinitions: [Int]
    /// The indices of the definitions that name others with `dependsOn`, in declaration order.
    let definitionsWithPrerequisites: [Int]

    /// Collects and checks `factory`'s definitions.
    ///
    /// - Throws: ``ContextError`` for the first naming rule broken, in declaration order (each
    ///   definition's key, its default aliases, its explicit aliases; the `aliases(for:)` groups
    ///   after every definition).
    public init(_ factory: some ObjectFactory) throws(ContextError) {
        var sink = ProblemSink(collecting: false)
        try self.init(name: factory.contextName, factory.definitions, overrides: nil, shapeOf: Self.staticType(of: factory), sink: &sink)
    }

    /// Collects `factory`'s definitions and replaces the closure and scope of each one that
    /// `overriding` also defines; names (keys, explicit and default aliases) stay `factory`'s.
    ///
    /// - Throws: ``ContextError/overrideOfUnknownKey(key:context:aliasOf:)`` when `overriding` defines a
    ///   key `factory` does not, and every error of ``init(_:)``.
    public init(_ factory: some ObjectFactory, overriding: some ObjectFactory) throws(ContextError) {
        var sink = ProblemSink(collecting: false)
        try self.init(name: factory.contextName, factory.definitions, overrides: overriding.definitions, shapeOf: Self.staticType(of: factory), sink: &sink)
    }

    /// The factory's type as the caller knows it, with no call into the runtime: `type(of:)` of
    /// an unspecialised generic value asks the runtime for its dynamic type (about 120
    /// instructions per context made). Only a class factory passed as its superclass differs,
    /// and the cache compares every name before reusing a table anyway.
    private static func staticType<Factory: ObjectFactory>(of _: Factory) -> Any.Type { Factory.self }

    init(name: String, _ collected: Definitions, overrides: Definitions?) throws(ContextError) {
        var sink = ProblemSink(collecting: false)
        try self.init(name: name, collected, overrides: overrides, shapeOf: nil, sink: &sink)
    }

    /// `shapeOf`: the factory's type, when the name table may be taken from (and kept in) the
    /// cache of the last one built for that type (`NameTableCache`).
    private init(name: String, _ collected: consuming Definitions, overrides: borrowing Definitions?, shapeOf factoryType: Any.Type?, sink: inout ProblemSink) throws(ContextError) {
        contextName = name
        var (definitions, declarations) = collected.split()
        let table: NameTable
        if let factoryType, let cached = NameTableCache.table(for: factoryType, definitions, declarations) {
            table = cached
        } else {
            table = try Self.buildTable(definitions, declarations, context: name, sink: &sink)
            if let factoryType, !sink.collecting {
                NameTableCache.remember(table, for: factoryType, definitions, declarations)
            }
        }
        // Borrowed: an absent override group, owned, was destroyed after every configuration.
        if let overrides = copy overrides {
            var seen = Set<String>()
            for replacement in overrides.definitions {
                // A key no factory may declare is that, before it is a key the factory lacks.
                guard Self.isValidKey(replacement.key.utf8) else {
                    throw .invalidKey(key: replacement.key, context: ContextError.overridesOf + name)
                }
                guard let index = table.definition(withKey: replacement.key) else {
                    let aliasOf = table.definition(named: replacement.key).map { table.keys[$0] }
                    throw .overrideOfUnknownKey(key: replacement.key, context: name, aliasOf: aliasOf)
                }
                guard seen.insert(replacement.key).inserted else {
                    throw .duplicateKey(key: replacement.key, context: ContextError.overridesOf + name)
                }
                definitions[index] = Self.merged(replacement, replacing: definitions[index])
            }
        }
        // By index: iterating would copy each definition (three retains and releases). One
        // loop, without a closure: a closure reading `definitions`, a `var`, boxed it on the heap.
        var withPrerequisites: [Int] = []
        var eager: [Int] = []
        for index in definitions.indices {
            if let reason = definitions[index].maker.invalidity {
                try sink.report(.invalidDefinition(key: definitions[index].key, reason: reason, context: name))
            }
            if definitions[index].hasPrerequisites { withPrerequisites.append(index) }
            if definitions[index].scope == .eagerSingleton { eager.append(index) }
        }
        self.definitions = definitions
        self.table = table
        eagerDefinitions = eager
        definitionsWithPrerequisites = withPrerequisites
    }

    /// A configurator built despite naming problems (each offending name left out), with every
    /// problem found; `nil` when no usable configuration could be built. For `validate`.
    static func collecting(name: String, _ collected: Definitions) -> (ConfiguratorFromFactory?, [ContextError]) {
        var sink = ProblemSink(collecting: true)
        do {
            let configurator = try ConfiguratorFromFactory(name: name, collected, overrides: nil, shapeOf: nil, sink: &sink)
            return (configurator, sink.problems)
        } catch {
            return (nil, sink.problems + [error])
        }
    }

    /// Every definition's key, in declaration order.
    public var keys: [String] { Array(table.keys) }

    /// Every alias of the context, explicit and default, mapped to the key it names.
    public var aliasTable: [String: String] {
        var result: [String: String] = [:]
        for (alias, _, definition) in table.allAliases() { result[alias] = table.keys[definition] }
        return result
    }

    /// The aliases of `key`: explicit ones first (in declaration order), then the generated
    /// default aliases. Empty for an unknown key.
    public func aliases(of key: String) -> [String] {
        guard let index = table.definition(withKey: key) else { return [] }
        let names = table.allAliases().filter { $0.definition == index }
        return names.filter { $0.kind == .explicitAlias }.map(\.name) + names.filter { $0.kind == .generatedAlias }.map(\.name)
    }

    /// The key answering to `name`, which may be a key or any alias; `nil` if none does.
    public func key(for name: String) -> String? {
        table.definition(named: name).map { table.keys[$0] }
    }

    // MARK: Checking

    private static func buildTable(_ definitions: [Definition], _ declarations: [Definitions.AliasDeclaration], context: String, sink: inout ProblemSink) throws(ContextError) -> NameTable {
        // Names are compared as Swift strings: a non-ASCII name is stored in normalisation form
        // C, so two spellings Swift considers equal are one name.
        let keys = ContiguousArray(definitions.map { NameTable.canonical($0.key) })
        var expectedAliases = declarations.reduce(0) { $0 + $1.aliases.count }
        for definition in definitions { expectedAliases += definition.explicitAliases.count }
        var table = NameTableBuilder(keys: keys, expectedAliases: expectedAliases + 8)

        if sink.collecting {
            // A validation: keys first (ASCII ones, then the others), then aliases, so that where
            // a key and an alias clash the key keeps its definition in the validation's context,
            // and the alias is the problem.
            var nonASCII: [Int] = []
            for index in keys.indices where !insertASCIIKey(index, into: &table, keys, context, &sink) {
                nonASCII.append(index)
            }
            for index in nonASCII { insertOtherKey(index, into: &table, keys, context, &sink) }
            for index in definitions.indices { insertAliases(of: index, definitions, into: &table, keys, context, &sink) }
        } else {
            // A context: each definition's names in the order written, the first problem thrown
            // (the first rule broken in the factory as written).
            for index in keys.indices {
                if !insertASCIIKey(index, into: &table, keys, context, &sink) { insertOtherKey(index, into: &table, keys, context, &sink) }
                insertAliases(of: index, definitions, into: &table, keys, context, &sink)
                try sink.throwFirst()
            }
        }
        for declaration in declarations {
            guard let index = table.definition(withKey: NameTable.canonical(declaration.key)) else {
                // A key of the factory left out of the table has had its problem reported.
                if !keys.contains(NameTable.canonical(declaration.key)) {
                    sink.note(.aliasOfUnknownKey(alias: declaration.aliases.first ?? "", key: declaration.key, context: context))
                }
                continue
            }
            for alias in declaration.aliases {
                insert(NameTable.canonical(alias), .explicitAlias, index, into: &table, keys, context, &sink)
            }
        }
        try sink.throwFirst()
        return NameTable(table)
    }

    /// Inserts definition `index`'s key if it is an ASCII key, with its default aliases as flags
    /// (the common case, without building them), or reports why it cannot; `false`, doing
    /// nothing, for any other key.
    private static func insertASCIIKey(_ index: Int, into table: inout NameTableBuilder, _ keys: ContiguousArray<String>, _ context: String, _ sink: inout ProblemSink) -> Bool {
        let key = keys[index], bytes = key.utf8
        guard isValidKey(bytes) else {
            sink.note(.invalidKey(key: key, context: context))
            return true
        }
        guard bytes.withContiguousStorageIfAvailable({ $0.allSatisfy { $0 < 0x80 } }) ?? bytes.allSatisfy({ $0 < 0x80 }) else { return false }
        let hash = NameTable.hash(key)
        let flags = DefaultAliases.asciiFlags(bytes)
        let existing = table.caseInsensitiveMatches(of: bytes, hash: hash)
        var kept = flags
        if !existing.isEmpty {
            // Rare: another name differs from this key only in ASCII case. Compare all of them:
            // a key that clashes is left out; a default alias that does is (the key goes in
            // without it, as a non-ASCII key's would, so a later name's clash with the key is
            // still found).
            if let problem = clash(key, .key, index, existing, keys, context) {
                sink.note(problem)
                return true
            }
            // The lowercase-first form before the uppercase one: it is the form that can be
            // another key (`Foo` after `foo`), a clash that explains itself, where the uppercase
            // form would only report the two keys' shared `FOO`.
            // One problem per other definition: `Foo` after `foo` clashes with it twice (`foo`,
            // and the `FOO` both have), and the first says why.
            var clashedWith: Set<Int> = []
            for flag in [NameTable.lowerFirstDefault, NameTable.upperDefault] where flags & flag != 0 {
                guard let alias = NameTable.asciiDefaults(of: key, flags: flag).first,
                      let problem = clash(alias, .generatedAlias, index, existing, keys, context) else { continue }
                note(problem, of: alias, existing, once: &clashedWith, &sink)
                kept &= ~flag
            }
        }
        table.insertKey(definition: index, flags: kept, hash: hash)
        return true
    }

    /// Inserts definition `index`'s non-ASCII key and each of its default aliases as a name of
    /// its own, or reports why it cannot. A key left out gets no default alias, whose clash
    /// would only repeat its problem.
    private static func insertOtherKey(_ index: Int, into table: inout NameTableBuilder, _ keys: ContiguousArray<String>, _ context: String, _ sink: inout ProblemSink) {
        guard insert(keys[index], .key, index, into: &table, keys, context, &sink) else { return }
        // One problem per other definition, as for an ASCII key.
        var clashedWith: Set<Int> = []
        for alias in DefaultAliases.of(keys[index]) {
            insert(NameTable.canonical(alias), .generatedAlias, index, into: &table, keys, context, &sink, clashedWith: &clashedWith)
        }
    }

    /// Inserts definition `index`'s explicit aliases, or reports why each cannot be.
    private static func insertAliases(of index: Int, _ definitions: [Definition], into table: inout NameTableBuilder, _ keys: ContiguousArray<String>, _ context: String, _ sink: inout ProblemSink) {
        for alias in definitions[index].explicitAliases {
            insert(NameTable.canonical(alias), .explicitAlias, index, into: &table, keys, context, &sink)
        }
    }

    /// Inserts `name`, or reports why it cannot; `true` if inserted.
    /// `clashedWith`: the other definitions a clash of this definition's was reported with
    /// already; another clash with one of them is left unreported (it repeats the first).
    @discardableResult
    private static func insert(_ name: String, _ kind: NameTable.Kind, _ definition: Int, into table: inout NameTableBuilder, _ keys: ContiguousArray<String>, _ context: String, _ sink: inout ProblemSink, clashedWith: inout Set<Int>) -> Bool {
        if kind != .generatedAlias, !isValidKey(name.utf8) {
            sink.note(.invalidKey(key: name, context: context))
            return false
        }
        let hash = NameTable.hash(name) == 0 ? NameTable.anyHash(name) : NameTable.hash(name)
        let existing = table.caseInsensitiveMatches(of: name.utf8, hash: hash)
        if let problem = clash(name, kind, definition, existing, keys, context) {
            note(problem, of: name, existing, once: &clashedWith, &sink)
            return false
        }
        if kind == .key {
            table.insertKey(definition: definition, flags: 0, hash: hash)
        } else {
            table.insertAlias(name, kind: kind, definition: definition, hash: hash)
        }
        return true
    }

    /// Inserts `name`, or reports why it cannot; `true` if inserted.
    @discardableResult
    private static func insert(_ name: String, _ kind: NameTable.Kind, _ definition: Int, into table: inout NameTableBuilder, _ keys: ContiguousArray<String>, _ context: String, _ sink: inout ProblemSink) -> Bool {
        var clashedWith: Set<Int> = []
        return insert(name, kind, definition, into: &table, keys, context, &sink, clashedWith: &clashedWith)
    }

    /// Notes `problem`, `name`'s clash with an existing name, unless a clash with that name's
    /// definition was noted already (`clashedWith`): another repeats the first.
    private static func note(_ problem: ContextError, of name: String, _ existing: [(name: String, kind: NameTable.Kind, definition: Int)], once clashedWith: inout Set<Int>, _ sink: inout ProblemSink) {
        guard let other = existing.first(where: { $0.name == name })?.definition, clashedWith.insert(other).inserted else { return }
        sink.note(problem)
    }

    /// The error for `name` (of `definition`, as `kind`) equal to an existing name, or `nil`.
    private static func clash(_ name: String, _ kind: NameTable.Kind, _ definition: Int, _ existing: [(name: String, kind: NameTable.Kind, definition: Int)], _ keys: ContiguousArray<String>, _ context: String) -> ContextError? {
        guard let other = existing.first(where: { $0.name == name }) else { return nil }
        switch (other.kind, kind) {
        case (.key, .key):
            return .duplicateKey(key: name, context: context)
        case (.key, _):
            return .aliasShadowsKey(alias: name, aliasOf: keys[definition], isGenerated: kind == .generatedAlias, context: context)
        case (_, .key):
            return .aliasShadowsKey(alias: name, aliasOf: keys[other.definition], isGenerated: other.kind == .generatedAlias, context: context)
        default:
            // Their definitions in declaration order, whichever name was inserted first.
            let uses: [ContextError.AliasUse] = [
                .init(key: keys[other.definition], isGenerated: other.kind == .generatedAlias),
                .init(key: keys[definition], isGenerated: kind == .generatedAlias),
            ]
            return .duplicateAlias(alias: name, uses: other.definition <= definition ? uses : uses.reversed(), context: context)
        }
    }

    /// Non-empty, and no whitespace at either end.
    private static func isValidKey(_ bytes: String.UTF8View) -> Bool {
        guard let first = bytes.first, let last = bytes.last else { return false }
        if first < 0x80, last < 0x80 {
            return !isASCIIWhitespace(first) && !isASCIIWhitespace(last)
        }
        let string = String(bytes)
        return !(string.first!.isWhitespace || string.last!.isWhitespace)
    }

    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }
}

extension ConfiguratorFromFactory {
    /// A test double's definition in place of the production one: its closure and scope, with
    /// the production names (key and explicit aliases) and the production `dependsOn` names (the
    /// order the app relies on, at start and at close), then the double's own not among them.
    static func merged(_ replacement: Definition, replacing production: Definition) -> Definition {
        var merged = replacement
        var prerequisites = production.prerequisites
        for name in replacement.prerequisites where !prerequisites.contains(name) { prerequisites.append(name) }
        prerequisites = Array(prerequisites.prefix(Int(UInt16.max)))
        merged.names = production.explicitAliases + prerequisites
        merged.prerequisiteCount = UInt16(prerequisites.count)
        return merged
    }
}
