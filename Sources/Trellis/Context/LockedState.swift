/// What a context keeps under `Coordinator.lock` beside its records: its journal, what its
/// lookups by type learned, and the async closers waiting for a close under way. Made on the
/// first write (`ApplicationContext.withLockedState`).
///
/// Optional rather than three stored fields because most contexts never write any of it (a
/// context made per request that records its edges in its `EdgeLog`, is not asked by type and is
/// closed once): releasing such a context destroys one empty optional instead of seven empty
/// collections, each a call into the runtime.
struct LockedState {
    var journal = ContextJournal()
    var typeCache = TypeLookupCache()
    /// The awaited closes waiting for the close under way to finish.
    var closeWaiters: [AsyncWaiter] = []
}
