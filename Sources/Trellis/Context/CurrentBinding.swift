/// What `withCurrent` binds for its task: the context, held strongly for as long as the binding.
///
/// An object of its own rather than the context itself: every `@Inject` wrapper made in the scope
/// reads the binding, and a read retains what it returns. Retaining the context would be the
/// runtime's slow path once its properties refer to it weakly (`ContextReference`); retaining
/// the binding is an ordinary retain.
final class CurrentBinding: Sendable {
    let context: ApplicationContext

    init(_ context: ApplicationContext) {
        self.context = context
    }

    /// The reference the context's properties share. Through an unretained view of `context`,
    /// which the binding keeps alive: reading the stored reference would retain the context.
    var reference: ContextReference {
        Unretained(context).with { $0.reference }
    }
}
