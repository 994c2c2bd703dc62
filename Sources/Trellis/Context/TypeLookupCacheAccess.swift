/// The operations on a context's `TypeLookupCache`, each taking `Coordinator.lock` briefly.
struct TypeLookupCacheAccess {
    /// Unretained: the caller holds the context.
    let unretained: Unretained<ApplicationContext>

    func kind(of definition: Int, is type: ObjectIdentifier) -> Bool? {
        unretained.with { context in
            Coordinator.lock.withLock { context.lockedStorage?.typeCache.kinds[.init(definition: definition, type: type)] }
        }
    }

    func rememberKind(of definition: Int, is type: ObjectIdentifier, _ matches: Bool) {
        unretained.with { context in
            Coordinator.lock.withLock { context.withLockedState { $0.typeCache.kinds[.init(definition: definition, type: type)] = matches } }
        }
    }

    func typeMatches(for type: ObjectIdentifier) -> [TypeMatchPosition]? {
        unretained.with { context in
            Coordinator.lock.withLock {
                // Empty until a second lookup: no hashing for a context asked once.
                if context.lockedStorage?.typeCache.typeMatches.isEmpty ?? true { return nil }
                return context.lockedStorage?.typeCache.typeMatches[type]
            }
        }
    }

    /// Whether a settled answer is worth keeping: from the second lookup by type this context
    /// answers (for any type) on. A context made per request is typically asked once and then
    /// dropped, and keeping its answer (a dictionary made, a hash, an array of positions, all
    /// freed with the context) cost that one lookup more than a fifth of itself; a context asked
    /// again keeps every answer from then on.
    func keepsTypeMatches() -> Bool {
        unretained.with { context in
            Coordinator.lock.withLock {
                context.withLockedState { state in
                    if state.typeCache.askedBefore { return true }
                    state.typeCache.askedBefore = true
                    return false
                }
            }
        }
    }

    func rememberTypeMatches(_ matches: [TypeMatchPosition], for type: ObjectIdentifier) {
        // Positions hold no user object: replacing one releases nothing of the user's under
        // the lock.
        unretained.with { context in
            Coordinator.lock.withLock { context.withLockedState { $0.typeCache.typeMatches[type] = matches } }
        }
    }
}
