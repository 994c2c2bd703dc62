/// The hash of a name's UTF-8 bytes with ASCII case folded, read from the string's own storage
/// eight bytes at a time: `NameTable`'s hash (Docs/DESIGN.md, "Naming: one frozen table"),
/// computed once per lookup.
enum FoldedHash {
    /// The hash of `name`; 0 for a name with a byte that is not ASCII, unless
    /// `allowingNonASCII`.
    @inline(__always)
    static func of(_ name: String, allowingNonASCII: Bool) -> UInt32 {
        // Most keys are short ASCII names, which Swift keeps inline in the string itself: hashed
        // from its two words, the same hash in half the instructions (no access to the storage,
        // no tail read in pieces).
        if let small = Runtime.smallASCII(name), small.count > 0 { return of(small) }
        return ofStoredBytes(name, allowingNonASCII: allowingNonASCII)
    }

    /// `of(_:allowingNonASCII:)` read from the string's UTF-8 storage, whatever its form: the
    /// path of every name but a small ASCII one.
    @inline(never)
    static func ofStoredBytes(_ name: String, allowingNonASCII: Bool) -> UInt32 {
        name.utf8.withContiguousStorageIfAvailable { of(UnsafeRawBufferPointer($0), allowingNonASCII: allowingNonASCII) }
            ?? Array(name.utf8).withUnsafeBytes { of($0, allowingNonASCII: allowingNonASCII) }
    }

    /// The hash of a small ASCII string's 1–15 bytes, given as two little-endian words: the
    /// words the general path reads from the same bytes, mixed the same way.
    @inline(__always)
    private static func of(_ small: (count: Int, low: UInt64, high: UInt64)) -> UInt32 {
        var hash = seed ^ UInt64(small.count)
        if small.count <= 8 {
            hash = mix(hash, small.low & bytes(small.count) & caseFold)
        } else {
            hash = mix(hash, small.low & caseFold)
            hash = mix(hash, small.high & bytes(small.count - 8) & caseFold)
        }
        return finished(hash)
    }

    /// A mask of the low `count` bytes of a word, `count` in 1...8.
    @inline(__always)
    private static func bytes(_ count: Int) -> UInt64 { UInt64.max &>> (UInt64(8 &- count) &* 8) }

    @inline(__always)
    private static var seed: UInt64 { 0x9E37_79B9_7F4A_7C15 }

    /// Bit 5 of every byte cleared: ASCII lowercase mapped to uppercase.
    @inline(__always)
    private static var caseFold: UInt64 { 0xDFDF_DFDF_DFDF_DFDF }

    /// Mixes the bytes eight at a time with bit 5 of every byte cleared, which maps ASCII
    /// lowercase to uppercase (and a few other bytes onto each other: only a hash collision,
    /// resolved by the exact comparison that follows). Returns 0 for bytes that are not all
    /// ASCII unless `allowingNonASCII`.
    @inline(__always)
    private static func of(_ bytes: UnsafeRawBufferPointer, allowingNonASCII: Bool) -> UInt32 {
        var hash: UInt64 = seed ^ UInt64(bytes.count)
        // Every load below stays within the `count` bytes from here.
        guard var pointer = bytes.baseAddress else { return 1 }
        var remaining = bytes.count
        var highBits: UInt64 = 0
        while remaining >= 8 {
            let word = pointer.loadUnaligned(as: UInt64.self).littleEndian
            highBits |= word
            hash = mix(hash, word & caseFold)
            pointer += 8
            remaining -= 8
        }
        if remaining > 0 {
            // The last 1–7 bytes as one word, in at most three loads.
            var word: UInt64 = 0
            var shift: UInt64 = 0
            if remaining >= 4 {
                word = UInt64(pointer.loadUnaligned(as: UInt32.self).littleEndian)
                pointer += 4
                remaining -= 4
                shift = 32
            }
            if remaining >= 2 {
                word |= UInt64(pointer.loadUnaligned(as: UInt16.self).littleEndian) << shift
                pointer += 2
                remaining -= 2
                shift += 16
            }
            if remaining == 1 {
                word |= UInt64(pointer.load(as: UInt8.self)) << shift
            }
            highBits |= word
            hash = mix(hash, word & caseFold)
        }
        if !allowingNonASCII && highBits & 0x8080_8080_8080_8080 != 0 { return 0 }
        return finished(hash)
    }

    @inline(__always)
    private static func finished(_ hash: UInt64) -> UInt32 {
        var hash = hash
        // Avalanche (MurmurHash3's finaliser) so that keys differing in one character, as
        // generated ones do, spread over the low bits that pick the bucket.
        hash ^= hash >> 33
        hash &*= 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        hash &*= 0xC4CE_B9FE_1A85_EC53
        hash ^= hash >> 33
        let folded = UInt32(truncatingIfNeeded: hash)
        return folded == 0 ? 1 : folded
    }

    @inline(__always)
    private static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        let product = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
        return product ^ (product >> 32)
    }
}
