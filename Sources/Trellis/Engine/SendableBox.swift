/// An `AnyBox` handed from one task to another.
struct SendableBox: @unchecked Sendable {
    // Safe: a box is immutable once made (its header is written before anyone else sees it, and
    // its value is only copied out); `ManagedBuffer` is not `Sendable` only because buffers in
    // general are mutable.
    let box: AnyBox
    init(_ box: AnyBox) { self.box = box }
}
