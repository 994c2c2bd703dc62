/// Every name of one context (keys, explicit aliases, default aliases) mapped to its definition:
/// an immutable open-addressing hash table, read without a lock on every lookup.
///
/// Why not `[String: Int]`: default aliases would cost two extra strings and two dictionary
/// entries per definition at start-up, and `String` hashing is SipHash. Here the hash folds ASCII
/// case, so a key and its default aliases share one entry, and the aliases are compared
/// byte-wise against the key instead of being stored (Docs/DESIGN.md, "Name table"). Non-ASCII
/// keys, rare, store theirs as ordinary entries.
final class NameTable: @unchecked Sendable {
    // Safe: every stored property is immutable after `init`; the buffers `buckets` and
    // `keyBuffer` are written only in `init` and freed in `deinit`.
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
    enum Kind: Equatable, Sendable { case key, explicitAlias, generatedAlias }

    let mask: Int
    /// Keys by definition index.
    let keys: ContiguousArray<String>
    /// Per definition: which ASCII default aliases its key entry answers to.
    let defaultFlags: ContiguousArray<UInt8>
    /// Names stored as entries of their own: explicit aliases and non-ASCII default aliases.
    let aliasNames: ContiguousArray<String>
    let aliasKinds: ContiguousArray<Kind>
    let aliasTargets: ContiguousArray<Int32>

    /// The buckets, and `keys` again, in heap buffers: the hot path reads them without bounds
    /// checks or reference counting.
    private let buckets: HeapBuffer<Entry>
    private let keyBuffer: HeapBuffer<String>

    init(_ builder: NameTableBuilder) {
        mask = builder.entries.count - 1
        keys = builder.keys
        defaultFlags = builder.defaultFlags
        aliasNames = builder.aliasNames
        aliasKinds = builder.aliasKinds
        aliasTargets = builder.aliasTargets
        buckets = HeapBuffer(copying: builder.entries)
        keyBuffer = HeapBuffer(copying: keys)
    }

    deinit {
        buckets.deallocate()
        keyBuffer.deinitialize(count: keyBuffer.count)
        keyBuffer.deallocate()
    }

    // MARK: Lookup (the hot path)

    /// The definition answering to `name` (a key or any alias), or `nil`.
    @inline(__always)
    func definition(named name: String) -> Int? {
        let key = Self.lookupKey(name)
        return definition(named: key.name, hash: key.hash)
    }

    /// `definition(named:)` with the name's hash already computed (every context's table hashes
    /// alike, so a lookup through the parent chain hashes once).
    @inline(__always)
    func definition(named name: String, hash: UInt32) -> Int? {
        var bucket = Int(hash) & mask
        while true {
            let entry = buckets[bucket]
            if entry.hash == 0 { return nil }
            if entry.hash == hash {
                let index = Int(entry.definition)
                if entry.alias < 0 {
                    if keyBuffer[index] == name || (defaultFlags[index] != 0 && isDefaultAlias(name, of: index)) { return index }
                } else if aliasNames[Int(entry.alias)] == name {
                    return index
                }
            }
            bucket = (bucket &+ 1) & mask
        }
    }

    /// The definition whose key is `key` (aliases do not count), or `nil`.
    func definition(withKey key: String) -> Int? {
        guard let index = definition(named: key), keys[index] == Self.canonical(key) else { return nil }
        return index
    }

    /// Whether `name` is one of the ASCII default aliases of definition `index`'s key.
    @inline(never)
    private func isDefaultAlias(_ name: String, of index: Int) -> Bool {
        let key = keys[index].utf8, candidate = name.utf8
        guard key.count == candidate.count, let first = key.first, let candidateFirst = candidate.first else { return false }
        let flags = defaultFlags[index]
        if flags & Self.upperDefault != 0, zip(key, candidate).allSatisfy({ Self.asciiUpper($0) == $1 }) { return true }
        return flags & Self.lowerFirstDefault != 0 && candidateFirst == first | 0x20 && key.dropFirst().elementsEqual(candidate.dropFirst())
    }

    /// Every implied and stored alias with its kind and definition.
    func allAliases() -> [(name: String, kind: Kind, definition: Int)] {
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

    /// The hash of an ASCII `name`, equal for names that differ only in ASCII case; never 0 for
    /// an ASCII name, and 0 for a name with any other character: such a name must be normalised
    /// first (`canonical(_:)`), since Swift considers differently encoded strings equal.
    @inline(__always)
    static func hash(_ name: String) -> UInt32 { FoldedHash.of(name, allowingNonASCII: false) }

    /// The hash of a name already in canonical form (`canonical(_:)`), whatever its characters.
    static func anyHash(_ name: String) -> UInt32 { FoldedHash.of(name, allowingNonASCII: true) }

    /// `name` in the form the table stores: unchanged if ASCII, else in Unicode normalisation
    /// form C (so `"caf\u{E9}"` and `"cafe\u{301}"`, equal as Swift strings, are one name).
    static func canonical(_ name: String) -> String {
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return name }
        return String(decoding: Runtime.nfcCodeUnits(of: name), as: UTF8.self)
    }

    /// The canonical form of a lookup's `name` and its hash: the ASCII hash if it has one, else
    /// the normalised name's (the rare path of non-ASCII lookups).
    @inline(__always)
    static func lookupKey(_ name: String) -> (name: String, hash: UInt32) {
        let hash = hash(name)
        if hash != 0 { return (name, hash) }
        return nonASCIILookupKey(name)
    }

    @inline(never)
    static func nonASCIILookupKey(_ name: String) -> (name: String, hash: UInt32) {
        let canonical = canonical(name)
        return (canonical, anyHash(canonical))
    }

    @inline(__always)
    static func asciiUpper(_ byte: UInt8) -> UInt8 { byte &- 0x61 < 26 ? byte &- 0x20 : byte }

    /// Whether two byte sequences are equal once ASCII letters are folded to uppercase.
    static func foldedEqual<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { asciiUpper($0) == asciiUpper($1) }
    }

    /// The default aliases an ASCII key answers to, given its flags.
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
}
