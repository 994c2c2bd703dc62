/// A value that stays where it is for as long as the process runs (an element of a table that
/// is never freed: an injection plan's field), referred to by its address: one word, copied and
/// stored freely without a retain, compared by identity, read in place.
@usableFromInline
struct Pinned<Value>: BitwiseCopyable {
    // Valid for ever: `HeapBuffer.pinned(at:)` is only called on buffers that are never freed.
    private let address: UnsafePointer<Value>

    /// Only `HeapBuffer.pinned(at:)` makes one.
    init(address: UnsafeMutablePointer<Value>) { self.address = .init(address) }

    /// The value, in place.
    var value: Value {
        @inline(__always) unsafeAddress { address }
    }
}

/// Two references are equal when they are the same element.
extension Pinned: Hashable {
    @usableFromInline static func == (a: Pinned, b: Pinned) -> Bool { a.address == b.address }
    @usableFromInline func hash(into hasher: inout Hasher) { hasher.combine(address) }
}

// Safe: the value is never written or freed once pinned (an immutable plan's field).
extension Pinned: @unchecked Sendable where Value: Sendable {}
