/// What `ValueBox` (a made singleton's storage) needs of `ManagedBuffer` beyond its safe API:
/// every singleton made is boxed, and every lookup that copies one out reads the box's header.
extension ManagedBuffer {
    /// A new instance of the subclass this is called on, as that subclass: `create` allocates
    /// an instance of the class it is called on, typed as `ManagedBuffer` (a checked cast would
    /// cost a runtime call per singleton made).
    @inline(__always)
    static func make(minimumCapacity: Int, makingHeaderWith makeHeader: (ManagedBuffer<Header, Element>) -> Header) -> Self {
        unsafeDowncast(create(minimumCapacity: minimumCapacity, makingHeaderWith: makeHeader), to: Self.self)
    }

    /// The header, read through its address rather than through `header`, a stored class
    /// property whose every access goes through the runtime's dynamic exclusivity check: for a
    /// header never written after `create`.
    @inline(__always)
    var immutableHeader: Header { withUnsafeMutablePointerToHeader { $0.pointee } }
}

extension ManagedBuffer where Element == UInt8 {
    /// A slot at the first 64-byte boundary among the elements, valid as long as the buffer:
    /// a value alone on its cache line (the buffer must have 63 bytes to spare).
    @inline(__always)
    func cacheLineSlot() -> ValueSlot {
        withUnsafeMutablePointerToElements { ValueSlot(rawValue: UnsafeMutableRawPointer($0).alignedUp(toMultipleOf: 64)) }
    }
}
