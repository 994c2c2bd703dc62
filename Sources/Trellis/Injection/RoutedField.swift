/// What a route says about one field.
@usableFromInline
enum RoutedField {
    /// The made singleton, declared as the field's type, is in this slot.
    case made(ValueSlot)
    /// A made singleton declared as another type (the field's type is a protocol it adopts, say),
    /// whose published value is in the slot, in the context given (the target's, which the
    /// injecting context keeps alive): `InjectRequest.convert(_:in:as:into:)` converts it.
    case convertible(ValueSlot, Unretained<ApplicationContext>)
    /// A synchronous prototype declared as the field's type, or (in a synchronous injection) a
    /// synchronous singleton not made yet: `makeTarget(into:)` makes it without looking its key
    /// up again.
    case toMake
    /// As `toMake`, for a definition declared as another type than the field's:
    /// `makeTargetAny()` makes it as `Any`, and the field's code casts it.
    case toMakeAny
    /// No context answers to the key.
    case missing
    /// (An async injection.) A singleton not made yet, or an async definition: the injection
    /// makes it without waiting if it can, else awaits it; the field is not filled here.
    case toAwait
    /// Look it up by name.
    case lookUp
}
