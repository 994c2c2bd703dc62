/// Every name of one context (keys, explicit aliases, default aliases) mapped to its definition:
/// an immutable open-addressing hash table built once by the configurator, read without a lock.
///
/// Why not `[String: Int]`: default aliases would cost two extra strings and two dictionary
/// entries per definition at start-up. Here the hash folds ASCII case, so a key and its default
/// aliases share one bucket and one entry, and the aliases are compared byte-wise from the key
/// instead of being stored (Docs/DESIGN.md, "Name table"). Non-ASCII keys, rare, store theirs.
struct NameTable: Sendable {
    static let upperDefault: UInt8 = 1
    static let lowerFirstDefault: UInt8 = 2

    struct Entry: Sendable {
        /// Case-folded hash, never 0; 0 marks an empty bucket.
        var hash: UInt32 = 0
        /// The definition this name belongs to.
        var definition: Int32 = 0
        /// `-1` for a key entry (which also answers to the key's ASCII default aliases), else the
        /// index of the name in `aliasNames`.
        var alias: Int32 = -1
    }

    /// What kind of name an entry is.
    enum Kind: Equatable { case key, explicitAlias, generatedAlias }

    private(set) var entries: ContiguousArray<Entry>
    private let mask: Int
    /// Keys by definition index.
    let keys: ContiguousArray<String>
    /// Per definition: which ASCII default aliases its key entry answers to.
    private(set) var defaultFlags: ContiguousArray<UInt8>
    /// Names stored explicitly: explicit aliases and non-ASCII default aliases.
    private(set) var aliasNames: ContiguousArray<String> = []
    private(set) var aliasKinds: ContiguousArray<Kind> = []
    private(set) var aliasTargets: ContiguousArray<Int32> = []

    init(keys: ContiguousArray<String>, expectedAliases: Int) {
        self.keys = keys
        var capacity = 16
        while capacity < (keys.count + expectedAliases) * 2 { capacity <<= 1 }
        entries = ContiguousArray(repeating: Entry(), count: capacity)
        mask = capacity - 1
        defaultFlags = ContiguousArray(repeating: 0, count: keys.count)
    }

    // MARK: Lookup (the hot path)

    /// The definition answering to `name` (a key or any alias), or `nil`.
    @inline(__always)
    func definition(named name: String) -> Int? {
        var name = name
        return name.withUTF8 { bytes -> Int? in
            let hash = Self.foldedHash(bytes)
            var bucket = Int(hash) & mask
            while true {
                let entry = entries[bucket]
                if entry.hash == 0 { return nil }
                if entry.hash == hash, matches(entry, bytes) { return Int(entry.definition) }
                bucket = (bucket &+ 1) & mask
            }
        }
    }

    /// The definition whose key is exactly `key` (aliases do not count), or `nil`.
    func definition(withKey key: String) -> Int? {
        guard let index = definition(named: key), keys[index] == key else { return nil }
        return index
    }

    @inline(__always)
    private func matches(_ entry: Entry, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        if entry.alias >= 0 { return Self.equal(aliasNames[Int(entry.alias)], name) }
        let index = Int(entry.definition)
        var key = keys[index]
        return key.withUTF8 { key in
            if Self.equal(key, name) { return true }
            let flags = defaultFlags[index]
            if flags == 0 || key.count != name.count { return false }
            if flags & Self.upperDefault != 0, Self.isUppercase(of: key, name) { return true }
            return flags & Self.lowerFirstDefault != 0 && Self.isLowercaseFirst(of: key, name)
        }
    }

    // MARK: Building (the configurator)

    /// Adds a key entry whose ASCII default aliases are implied by `flags`. The caller has
    /// checked the key and its default aliases against every existing name.
    mutating func insertKey(definition: Int, flags: UInt8, hash: UInt32) {
        defaultFlags[definition] = flags
        place(Entry(hash: hash, definition: Int32(definition), alias: -1))
    }

    /// Adds a stored name. The caller has checked it against every existing name.
    mutating func insertAlias(_ name: String, kind: Kind, definition: Int, hash: UInt32) {
        aliasNames.append(name)
        aliasKinds.append(kind)
        aliasTargets.append(Int32(definition))
        place(Entry(hash: hash, definition: Int32(definition), alias: Int32(aliasNames.count - 1)))
    }

    private mutating func place(_ entry: Entry) {
        var bucket = Int(entry.hash) & mask
        while entries[bucket].hash != 0 { bucket = (bucket &+ 1) & mask }
        entries[bucket] = entry
    }

    /// Every name already in the table that is ASCII-case-insensitively equal to `name`, with its
    /// kind and definition: the only names `name` can clash with.
    func caseInsensitiveMatches(of name: UnsafeBufferPointer<UInt8>, hash: UInt32) -> [(name: String, kind: Kind, definition: Int)] {
        var result: [(String, Kind, Int)] = []
        var bucket = Int(hash) & mask
        while entries[bucket].hash != 0 {
            let entry = entries[bucket]
            bucket = (bucket &+ 1) & mask
            guard entry.hash == hash else { continue }
            if entry.alias >= 0 {
                var alias = aliasNames[Int(entry.alias)]
                if alias.withUTF8({ Self.foldedEqual($0, name) }) {
                    result.append((alias, aliasKinds[Int(entry.alias)], Int(entry.definition)))
                }
            } else {
                let index = Int(entry.definition)
                var key = keys[index]
                guard key.withUTF8({ Self.foldedEqual($0, name) }) else { continue }
                result.append((key, .key, index))
                for alias in Self.asciiDefaults(of: key, flags: defaultFlags[index]) {
                    result.append((alias, .generatedAlias, index))
                }
            }
        }
        return result
    }

    /// The default aliases an ASCII key entry answers to.
    static func asciiDefaults(of key: String, flags: UInt8) -> [String] {
        var result: [String] = []
        if flags & upperDefault != 0 { result.append(String(decoding: key.utf8.map(asciiUpper), as: UTF8.self)) }
        if flags & lowerFirstDefault != 0 {
            var bytes = Array(key.utf8)
            bytes[0] |= 0x20
            result.append(String(decoding: bytes, as: UTF8.self))
        }
        return result
    }

    /// Every stored and implied name with its kind and definition, in table order.
    func allNames() -> [(name: String, kind: Kind, definition: Int)] {
        var result: [(String, Kind, Int)] = []
        for (index, key) in keys.enumerated() {
            for alias in Self.asciiDefaults(of: key, flags: defaultFlags[index]) {
                result.append((alias, .generatedAlias, index))
            }
        }
        for (index, alias) in aliasNames.enumerated() {
            result.append((alias, aliasKinds[index], Int(aliasTargets[index])))
        }
        return result
    }

    // MARK: Bytes

    /// FNV-1a over the bytes with ASCII letters folded to uppercase; never 0.
    @inline(__always)
    static func foldedHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in bytes {
            hash = (hash ^ UInt32(asciiUpper(byte))) &* 16_777_619
        }
        return hash == 0 ? 1 : hash
    }

    @inline(__always)
    static func asciiUpper(_ byte: UInt8) -> UInt8 { byte &- 0x61 < 26 ? byte &- 0x20 : byte }

    @inline(__always)
    private static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let pa = a.baseAddress, let pb = b.baseAddress else { return true }
        return memcmpBytes(pa, pb, a.count)
    }

    @inline(__always)
    private static func equal(_ a: String, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var a = a
        return a.withUTF8 { equal($0, b) }
    }

    private static func foldedEqual(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where asciiUpper(a[i]) != asciiUpper(b[i]) { return false }
        return true
    }

    private static func isUppercase(of key: UnsafeBufferPointer<UInt8>, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        for i in 0..<key.count where asciiUpper(key[i]) != name[i] { return false }
        return true
    }

    private static func isLowercaseFirst(of key: UnsafeBufferPointer<UInt8>, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard name[0] == key[0] | 0x20 else { return false }
        for i in 1..<key.count where key[i] != name[i] { return false }
        return true
    }

    @inline(__always)
    private static func memcmpBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        if a == b { return true }
        for i in 0..<count where a[i] != b[i] { return false }
        return true
    }
}
