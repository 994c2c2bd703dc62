import Testing
@testable import Trellis

// A name is looked up by its hash (Docs/DESIGN.md, "Naming: one frozen table"). A short ASCII
// name is hashed from the string's inline words, every other from its UTF-8 storage: the two
// must agree byte for byte, or a key written one way would not be found when looked up the
// other way (a name bridged from Objective-C, say, is never small).

@Suite struct FoldedHashTests {
    /// Names of every small length, of bytes from the whole ASCII range and both cases.
    private static let names: [String] = (1...15).flatMap { length -> [String] in
        let repeated = String(repeating: "a", count: length)
        let dotted = String("Config.Database.Pool".prefix(length))
        let spread: [UInt8] = (0..<length).map { position in UInt8(0x20 + (position * 37 + length * 11) % 0x5F) }
        let descending: [UInt8] = (0..<length).map { position in UInt8(0x7F - position) }
        return [repeated, dotted, String(decoding: spread, as: UTF8.self), String(decoding: descending, as: UTF8.self)]
    }

    @Test(arguments: names)
    func aSmallNameHashesAsItsStoredBytesDo(name: String) {
        let small = Runtime.smallASCII(name)
        #expect(small?.count == name.utf8.count)
        #expect(FoldedHash.of(name, allowingNonASCII: false) == FoldedHash.ofStoredBytes(name, allowingNonASCII: false))
        #expect(FoldedHash.of(name, allowingNonASCII: true) == FoldedHash.ofStoredBytes(name, allowingNonASCII: true))
    }

    @Test func namesThatDifferOnlyInAsciiCaseHashAlike() {
        #expect(FoldedHash.of("userRepository", allowingNonASCII: false) == FoldedHash.of("UserRepository", allowingNonASCII: false))
        #expect(FoldedHash.of("db", allowingNonASCII: false) == FoldedHash.of("DB", allowingNonASCII: false))
    }

    @Test func namesThatAreNotSmallAsciiTakeTheStoredBytes() {
        #expect(Runtime.smallASCII("") == nil || Runtime.smallASCII("")?.count == 0)
        #expect(Runtime.smallASCII("a sixteen byte k") == nil)
        #expect(Runtime.smallASCII("caf\u{E9}") == nil)
        #expect(FoldedHash.of("caf\u{E9}", allowingNonASCII: false) == 0)
        #expect(FoldedHash.of("a sixteen byte key", allowingNonASCII: false) == FoldedHash.ofStoredBytes("a sixteen byte key", allowingNonASCII: false))
    }
}
