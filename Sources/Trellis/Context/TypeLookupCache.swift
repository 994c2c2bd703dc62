/// What lookups by type (`objects(of:)`, `object(of:)`) learned in one context, so the next one
/// asks less. Guarded by `Coordinator.lock` (see `ContextJournal` for why not a lock of its own).
///
/// Positions and answers only, never objects or contexts: the cache belongs to the context, so
/// anything it retained that leads back to the context (the context itself, a child's parent
/// chain, a singleton) would keep the context and everything it made alive forever.
struct TypeLookupCache {
    /// Whether a prototype's objects are of a queried type.
    var kinds: [KindKey: Bool] = [:]
    /// Per queried type: where `objects(of:)` found its matches, once that can no longer change.
    var typeMatches: [ObjectIdentifier: [TypeMatchPosition]] = [:]

    struct KindKey: Hashable {
        let definition: Int
        let type: ObjectIdentifier
    }
}

/// The operations on a context's `TypeLookupCache`, each taking `Coordinator.lock` briefly.
struct TypeLookupCacheAccess {
    /// Unretained: the caller holds the context.
    let unretained: Unmanaged<ApplicationContext>

    func kind(of definition: Int, is type: ObjectIdentifier) -> Bool? {
        unretained.withGuaranteedReference { context in
            Coordinator.lock.withLock { context.typeCacheStorage.kinds[.init(definition: definition, type: type)] }
        }
    }

    func rememberKind(of definition: Int, is type: ObjectIdentifier, _ matches: Bool) {
        unretained.withGuaranteedReference { context in
            Coordinator.lock.withLock { context.typeCacheStorage.kinds[.init(definition: definition, type: type)] = matches }
        }
    }

    func typeMatches(for type: ObjectIdentifier) -> [TypeMatchPosition]? {
        unretained.withGuaranteedReference { context in
            Coordinator.lock.withLock { context.typeCacheStorage.typeMatches[type] }
        }
    }

    func rememberTypeMatches(_ matches: [TypeMatchPosition], for type: ObjectIdentifier) {
        // Positions hold no user object: replacing one releases nothing of the user's under
        // the lock.
        unretained.withGuaranteedReference { context in
            Coordinator.lock.withLock { context.typeCacheStorage.typeMatches[type] = matches }
        }
    }
}
