/// Reliant's default aliases: every key `fooBar` also answers to `FOOBAR` and to its
/// lowercase-first form (`FooBar` → `fooBar`), each only where it differs from the key.
enum DefaultAliases {
    /// The default aliases of `key`, in the order lowercase-first, uppercase, without duplicates:
    /// the order a configuration checks them in (the lowercase-first form is the one that can be
    /// another definition's key, the clash whose message explains itself).
    static func of(_ key: String) -> [String] {
        var result: [String] = []
        let upper = key.uppercased()
        if let first = key.first {
            let lowerFirst = first.lowercased() + key.dropFirst()
            if lowerFirst != key, lowerFirst != upper { result.append(lowerFirst) }
        }
        if upper != key, !result.contains(upper) { result.append(upper) }
        return result
    }

    /// For an ASCII key, which default aliases exist, computed without building them.
    static func asciiFlags(_ utf8: String.UTF8View) -> UInt8 {
        var flags: UInt8 = 0
        let hasLowercase = utf8.withContiguousStorageIfAvailable { $0.contains { $0 &- 0x61 < 26 } } ?? utf8.contains { $0 &- 0x61 < 26 }
        if hasLowercase { flags |= NameTable.upperDefault }
        if let first = utf8.first, first &- 0x41 < 26 { flags |= NameTable.lowerFirstDefault }
        return flags
    }
}
