/// A context as the properties that look it up on first read refer to it: weakly, through the
/// one object per context they share.
///
/// A `.lazy` property, or one of an object made while a context was current, must not keep its
/// context alive, so it refers to it weakly. One weak reference per property cost each wrapper
/// a weak reference formed and destroyed, and made every retain of the context the runtime's
/// slow path once the context had a side table: a request handled inside `withCurrent` paid
/// that for every property of every object its context made. The properties now retain this
/// object instead (an ordinary retain), and the context is referred to weakly once.
@usableFromInline
final class ContextReference: Sendable {
    /// The context, while it is alive.
    weak let context: ApplicationContext?
    /// Its name, for the message of a read after it is gone.
    let name: String

    init(_ context: ApplicationContext) {
        self.context = context
        name = context.name
    }
}
