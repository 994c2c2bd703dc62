/// What a wrapper needs to fill itself: references held unretained (the injection keeps them
/// alive), passed borrowed, so filling a property retains nothing.
@usableFromInline
struct InjectRequest {
    /// The injecting context. Unretained: the injection keeps it alive.
    @usableFromInline let context: Unretained<ApplicationContext>
    /// The lookup's requester: the definition whose object is injected (for the dependency
    /// graph), in the injecting resolution.
    @usableFromInline let requester: Requester
    @usableFromInline let plan: Unretained<InjectionPlan>
    /// The field being filled (plans are immortal).
    @usableFromInline let field: Pinned<InjectionPlan.Field>
    /// Filled by an async injection: a singleton being made by someone else, and an async
    /// definition, are awaited rather than made or waited for here (`RoutedField.toAwait`).
    @usableFromInline let isAsync: Bool
    /// The field's target in the injecting definition's route, if it has one.
    @usableFromInline let target: InjectionRoute.Target?

    /// The definition whose object is injected; -1 for `inject(into:)`.
    @usableFromInline var requesterIndex: Int { requester.index }

    /// The property's name, the key unless the wrapper names one.
    @usableFromInline var property: String { field.value.property }
    @usableFromInline var ownerName: String { plan.with { $0.typeName } }

    /// Filled in `validate()`'s scratch context: `.lazy` properties are read once the
    /// validation has made every definition (`checkLater`).
    @usableFromInline var isValidating: Bool { context.with { $0.isValidation } }

    /// Has the validation read `lazy`, the state of the `.lazy` property just filled, once it
    /// has made every definition: a first read that fails (a type mismatch, a closure throwing)
    /// would stop the program, so the validation reports it instead. Read then, not now: a
    /// `.lazy` property often breaks a cycle that reading it now would close.
    @usableFromInline
    func checkLater(_ lazy: LazyInjectionSlot) {
        requester.resolution.with { $0.session.problems?.checkLater(lazy) }
    }

    @usableFromInline
    func typeMismatch<Expected>(_ key: String, expected: Expected.Type, actual: Any) -> ContextError {
        .mismatch(key, actual, as: Expected.self, path: Resolution.path(of: requester, appending: key))
    }
}
