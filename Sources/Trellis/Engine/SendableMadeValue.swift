/// A `MadeValue` handed from one task to another.
struct SendableMadeValue: @unchecked Sendable {
    // Safe: a made value is immutable once made (a box's header is written before anyone else
    // sees it, and its value is only copied out; an object is only handed out by reference, as
    // every lookup hands it out).
    let value: MadeValue
    init(_ value: MadeValue) { self.value = value }
}
