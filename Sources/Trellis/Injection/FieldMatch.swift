/// Which of an owner's `@Inject` fields a read is of, for `PropertyNaming`: where its storage
/// lies in the owner. Made only by a read that must name its property (a first read from the
/// current context, a read of a property never injected).
final class FieldMatch {
    /// The offset of the property's storage in the owner.
    let offset: Int

    init(offset: Int) { self.offset = offset }
}
