/// The name table last built for each factory type, with the names it was built from.
///
/// A context made per request evaluates its factory every time (its closures capture the
/// request), but its names are almost always the same: when the keys and aliases are those the
/// cached table was checked and built from, the table is reused, and the request pays neither
/// the building nor the checking again. Different names (a factory generating its definitions
/// from configuration) build a new table, which replaces the cached one.
enum NameTableCache {
    /// A class: reading the entry under the lock retains it once, not each of its arrays.
    private final class Entry: Sendable {
        let keys: [String]
        let explicitAliases: [[String]]
        let declarations: [Definitions.AliasDeclaration]
        let table: NameTable

        init(keys: [String], explicitAliases: [[String]], declarations: [Definitions.AliasDeclaration], table: NameTable) {
            self.keys = keys
            self.explicitAliases = explicitAliases
            self.declarations = declarations
            self.table = table
        }
    }

    private static let entries = Locked<[ObjectIdentifier: Entry]>([:])

    /// The cached table of `factoryType` if it was built from exactly these names.
    static func table(for factoryType: Any.Type, _ definitions: [Definition], _ declarations: [Definitions.AliasDeclaration]) -> NameTable? {
        guard let entry = entries.withLock({ $0[ObjectIdentifier(factoryType)] }) else { return nil }
        guard entry.keys.count == definitions.count, entry.declarations.count == declarations.count else { return nil }
        // By index: iterating would copy each definition (three retains and releases).
        for position in definitions.indices {
            guard definitions[position].key == entry.keys[position], definitions[position].explicitAliases == entry.explicitAliases[position] else { return nil }
        }
        for (declaration, cached) in zip(declarations, entry.declarations) {
            guard declaration.key == cached.key, declaration.aliases == cached.aliases else { return nil }
        }
        return entry.table
    }

    /// Keeps `table`, built without problems from these names, for `factoryType`.
    static func remember(_ table: NameTable, for factoryType: Any.Type, _ definitions: [Definition], _ declarations: [Definitions.AliasDeclaration]) {
        let entry = Entry(keys: definitions.map(\.key), explicitAliases: definitions.map(\.explicitAliases), declarations: declarations, table: table)
        let replaced = entries.withLock { entries in
            defer { entries[ObjectIdentifier(factoryType)] = entry }
            return entries[ObjectIdentifier(factoryType)]
        }
        withExtendedLifetime(replaced) {}
    }
}
