/// A dependency recorded while an object was made: definition `from` of a context looked up
/// definition `to` of the context `levels` up its parent chain (0: itself).
struct Edge: Hashable, Sendable, BitwiseCopyable {
    let from: Int
    let levels: Int
    let to: Int
    /// The injected property, or `nil` for a closure lookup. A reference to the plan's field
    /// rather than its name: a short-lived context records every edge of every object it
    /// makes, and copying a string costs a retain each time.
    let label: Pinned<InjectionPlan.Field>?

    /// The injected property's name, or `nil` for a closure lookup.
    var labelName: String? { label?.value.property }
}
