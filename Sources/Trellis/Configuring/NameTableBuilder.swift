/// The mutable table the configurator fills while it checks names; frozen into a `NameTable`.
struct NameTableBuilder {
    private(set) var entries: ContiguousArray<NameTable.Entry>
    private let mask: Int
    let keys: ContiguousArray<String>
    private(set) var defaultFlags: ContiguousArray<UInt8>
    private(set) var aliasNames: ContiguousArray<String> = []
    private(set) var aliasKinds: ContiguousArray<NameTable.Kind> = []
    private(set) var aliasTargets: ContiguousArray<Int32> = []

    init(keys: ContiguousArray<String>, expectedAliases: Int) {
        self.keys = keys
        var capacity = 16
        while capacity < (keys.count + expectedAliases) * 2 { capacity <<= 1 }
        entries = ContiguousArray(repeating: NameTable.Entry(), count: capacity)
        mask = capacity - 1
        defaultFlags = ContiguousArray(repeating: 0, count: keys.count)
    }

    /// Adds a key entry whose ASCII default aliases are implied by `flags`. The caller has checked
    /// the key and its default aliases against every existing name.
    mutating func insertKey(definition: Int, flags: UInt8, hash: UInt32) {
        defaultFlags[definition] = flags
        place(NameTable.Entry(hash: hash, definition: Int32(definition), alias: -1))
    }

    /// Adds a stored name. The caller has checked it against every existing name.
    mutating func insertAlias(_ name: String, kind: NameTable.Kind, definition: Int, hash: UInt32) {
        aliasNames.append(name)
        aliasKinds.append(kind)
        aliasTargets.append(Int32(definition))
        place(NameTable.Entry(hash: hash, definition: Int32(definition), alias: Int32(aliasNames.count - 1)))
    }

    private mutating func place(_ entry: NameTable.Entry) {
        var bucket = Int(entry.hash) & mask
        while entries[bucket].hash != 0 { bucket = (bucket &+ 1) & mask }
        entries[bucket] = entry
    }

    /// The definition whose key is exactly `key` (canonical), or `nil`.
    func definition(withKey key: String) -> Int? {
        let hash = NameTable.hash(key) == 0 ? NameTable.anyHash(key) : NameTable.hash(key)
        var bucket = Int(hash) & mask
        while entries[bucket].hash != 0 {
            let entry = entries[bucket]
            if entry.hash == hash, entry.alias < 0, keys[Int(entry.definition)] == key { return Int(entry.definition) }
            bucket = (bucket &+ 1) & mask
        }
        return nil
    }

    /// Every name already in the table that is ASCII-case-insensitively equal to `name`, with its
    /// kind and definition: the only names `name` can clash with.
    func caseInsensitiveMatches(of name: String.UTF8View, hash: UInt32) -> [(name: String, kind: NameTable.Kind, definition: Int)] {
        var result: [(String, NameTable.Kind, Int)] = []
        var bucket = Int(hash) & mask
        while entries[bucket].hash != 0 {
            let entry = entries[bucket]
            bucket = (bucket &+ 1) & mask
            guard entry.hash == hash else { continue }
            if entry.alias >= 0 {
                let alias = aliasNames[Int(entry.alias)]
                if NameTable.foldedEqual(alias.utf8, name) {
                    result.append((alias, aliasKinds[Int(entry.alias)], Int(entry.definition)))
                }
            } else {
                let index = Int(entry.definition)
                let key = keys[index]
                guard NameTable.foldedEqual(key.utf8, name) else { continue }
                result.append((key, .key, index))
                for alias in NameTable.asciiDefaults(of: key, flags: defaultFlags[index]) {
                    result.append((alias, .generatedAlias, index))
                }
            }
        }
        return result
    }
}
