/// A type's name as `String(describing:)` writes it, at a fraction of the cost.
///
/// A context made per request names itself after its factory's type on every request, and
/// `String(describing:)` costs thousands of instructions. The runtime's `_typeName` (`Runtime.unqualifiedName`) is cheap but,
/// in optimised builds, spells a `private` or `fileprivate` type with its discriminator,
/// `(RequestFactory in _3259BD65DE6C89FC…)`, which is removed here.
///
/// Inlinable so that, where the type is known (a factory's `contextName`), the compiler folds
/// `_typeName` into a constant string and only the check for a discriminator remains.
@usableFromInline
enum TypeName {
    @inlinable
    @inline(__always)
    static func of<T>(_ type: T.Type) -> String {
        let name = Runtime.unqualifiedName(of: T.self)
        // Over contiguous bytes: iterating `utf8` would cost more than the name itself.
        let mayHaveDiscriminator = name.utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: "(")) } ?? true
        guard mayHaveDiscriminator else { return name }
        return removingDiscriminators(from: name)
    }

    /// `name` with every `(Name in _HEX)` replaced by `Name`; tuples and function types left
    /// alone.
    @usableFromInline
    static func removingDiscriminators(from name: String) -> String {
        String(decoding: withoutDiscriminators(Array(name.utf8)), as: UTF8.self)
    }

    /// `bytes` with every `(Name in _HEX)` replaced by `Name`.
    private static func withoutDiscriminators(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var position = 0
        while position < bytes.count {
            if bytes[position] == UInt8(ascii: "("), let (name, end) = discriminated(bytes, from: position) {
                result.append(contentsOf: bytes[name])
                position = end
            } else {
                result.append(bytes[position])
                position += 1
            }
        }
        return result
    }

    /// The name inside a `(Name in _HEX)` starting at `open`, and the position after it.
    private static func discriminated(_ bytes: [UInt8], from open: Int) -> (Range<Int>, Int)? {
        let marker = Array(" in _".utf8)
        var space = open + 1
        while space < bytes.count, bytes[space] != UInt8(ascii: " ") {
            if bytes[space] == UInt8(ascii: "(") || bytes[space] == UInt8(ascii: ")") { return nil }
            space += 1
        }
        guard space > open + 1, space + marker.count <= bytes.count, Array(bytes[space..<space + marker.count]) == marker else { return nil }
        var close = space + marker.count
        while close < bytes.count, isASCIIAlphanumeric(bytes[close]) { close += 1 }
        guard close < bytes.count, bytes[close] == UInt8(ascii: ")"), close > space + marker.count else { return nil }
        return (open + 1..<space, close + 1)
    }

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
    }
}
