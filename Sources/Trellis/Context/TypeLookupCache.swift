/// What lookups by type (`objects(of:)`, `object(of:)`) learned in one context, so the next one
/// asks less. Guarded by `Coordinator.lock` (see `ContextJournal` for why not a lock of its own).
///
/// Positions and answers only, never objects or contexts: the cache belongs to the context, so
/// anything it retained that leads back to the context (the context itself, a child's parent
/// chain, a singleton) would keep the context and everything it made alive forever.
struct TypeLookupCache {
    // `Dictionary()` rather than `[:]`: the literal goes through `init(dictionaryLiteral:)`, a
    // call per dictionary for every context made (one per request), where `init()` is inlined.
    /// Whether a prototype's objects are of a queried type.
    var kinds = [KindKey: Bool]()
    /// Per queried type: where `objects(of:)` found its matches, once that can no longer change.
    var typeMatches = [ObjectIdentifier: [TypeMatchPosition]]()
    /// Whether this context was asked for a type before: the first answer is not kept
    /// (`TypeLookupCacheAccess.keepsTypeMatches`).
    var askedBefore = false

    struct KindKey: Hashable {
        let definition: Int
        let type: ObjectIdentifier
    }
}
