import Synchronization

/// The name table last built for each factory type, with the names it was built from.
///
/// A context made per request evaluates its factory every time (its closures capture the
/// request), but its names are almost always the same: when the keys and aliases are those the
/// cached table was checked and built from, the table is reused, and the request pays neither
/// the building nor the checking again. Different names (a factory generating its definitions
/// from configuration) build a new table, which replaces the cached one.
///
/// The first table of a type that is reused is also kept for the process and found without the
/// lock (`recent`): a request then pays neither the lock nor hashing the type into the
/// dictionary. At most one per factory type is kept so; any other shape goes through the lock.
enum NameTableCache {
    /// A class: reading the entry under the lock retains it once, not each of its arrays.
    private final class Entry: Sendable {
        let factoryType: ObjectIdentifier
        let keys: [String]
        let explicitAliases: [[String]]
        let declarations: [Definitions.AliasDeclaration]
        let table: NameTable

        init(factoryType: ObjectIdentifier, keys: [String], explicitAliases: [[String]], declarations: [Definitions.AliasDeclaration], table: NameTable) {
            self.factoryType = factoryType
            self.keys = keys
            self.explicitAliases = explicitAliases
            self.declarations = declarations
            self.table = table
        }

        /// Whether the table was built from exactly these names.
        func matches(_ definitions: [Definition], _ declarations: [Definitions.AliasDeclaration]) -> Bool {
            guard keys.count == definitions.count, self.declarations.count == declarations.count else { return false }
            // By index: iterating would copy each definition (three retains and releases). A
            // definition without aliases or prerequisites (most) has an empty `names`, compared
            // without building its `explicitAliases`.
            for position in definitions.indices {
                guard definitions[position].key == keys[position],
                      definitions[position].names.isEmpty ? explicitAliases[position].isEmpty : aliasesMatch(definitions, position)
                else { return false }
            }
            for (declaration, cached) in zip(declarations, self.declarations) {
                guard declaration.key == cached.key, declaration.aliases == cached.aliases else { return false }
            }
            return true
        }

        /// Apart, so that the loop above builds no array for the definitions without names.
        @inline(never)
        private func aliasesMatch(_ definitions: [Definition], _ position: Int) -> Bool {
            definitions[position].explicitAliases == explicitAliases[position]
        }
    }

    /// Per factory type: the latest entry, and whether the type has an entry kept in `recent`.
    private struct Cached {
        var latest: Entry
        var kept: Bool
    }

    private static let entries = Locked<[ObjectIdentifier: Cached]>([:])

    /// The kept entry of each of 256 hash classes of factory types, the last one stored there.
    /// A kept entry is retained once for the process and never released, so a slot holds it
    /// unretained and a reader may use it whatever another thread stores meanwhile.
    // Safe: allocated once, never freed, and only ever accessed through the atomics it holds.
    nonisolated(unsafe) private static let recent: HeapBuffer<Atomic<Unretained<Entry>?>> = {
        let slots = HeapBuffer<Atomic<Unretained<Entry>?>>(count: 256)
        for slot in slots.indices { slots.initialize(slot, to: Atomic(nil)) }
        return slots
    }()

    @inline(__always)
    private static func slot(of id: ObjectIdentifier) -> Int {
        // Metadata is at least 16-byte aligned: the bits above the lowest four pick the slot.
        let bits = UInt(bitPattern: Int(bitPattern: id)) >> 4
        return Int((bits ^ (bits >> 8)) & 255)
    }

    /// The cached table of `factoryType` if it was built from exactly these names.
    static func table(for factoryType: Any.Type, _ definitions: [Definition], _ declarations: [Definitions.AliasDeclaration]) -> NameTable? {
        let id = ObjectIdentifier(factoryType)
        if let kept = recent[slot(of: id)].load(ordering: .acquiring),
           let table = kept.with({ $0.factoryType == id && $0.matches(definitions, declarations) ? $0.table : nil }) {
            return table
        }
        guard let cached = entries.withLock({ $0[id] }), cached.latest.matches(definitions, declarations) else { return nil }
        keep(cached.latest, id)
        return cached.latest.table
    }

    /// Keeps `entry`, just reused, for the process and where `table(for:_:_:)` reads it without
    /// the lock, if its type has no entry kept yet.
    private static func keep(_ entry: Entry, _ id: ObjectIdentifier) {
        let kept = entries.withLock { entries -> Unretained<Entry>? in
            guard entries[id]?.kept == false, entries[id]?.latest === entry else { return nil }
            entries[id]?.kept = true
            // Never released: `recent` holds it unretained, and readers use it without a retain.
            return Unretained.retained(entry)
        }
        if let kept { recent[slot(of: id)].store(kept, ordering: .releasing) }
    }

    /// Keeps `table`, built without problems from these names, for `factoryType`.
    static func remember(_ table: NameTable, for factoryType: Any.Type, _ definitions: [Definition], _ declarations: [Definitions.AliasDeclaration]) {
        let id = ObjectIdentifier(factoryType)
        let entry = Entry(factoryType: id, keys: definitions.map(\.key), explicitAliases: definitions.map(\.explicitAliases), declarations: declarations, table: table)
        let replaced = entries.withLock { entries in
            defer { entries[id] = Cached(latest: entry, kept: entries[id]?.kept ?? false) }
            return entries[id]
        }
        withExtendedLifetime(replaced) {}
    }
}
