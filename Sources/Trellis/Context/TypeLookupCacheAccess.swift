/// The operations on a context's `TypeLookupCache`, each taking `Coordinator.lock` briefly.
struct TypeLookupCacheAccess {
    /// Unretained: the caller holds the context.
    let unretained: Unretained<ApplicationContext>

    func kind(of definition: Int, is type: ObjectIdentifier) -> Bool? {
        unretained.with { context in
            Coordinator.lock.withLock { context.typeCacheStorage.kinds[.init(definition: definition, type: type)] }
        }
    }

    func rememberKind(of definition: Int, is type: ObjectIdentifier, _ matches: Bool) {
        unretained.with { context in
            Coordinator.lock.withLock { context.typeCacheStorage.kinds[.init(definition: definition, type: type)] = matches }
        }
    }

    func typeMatches(for type: ObjectIdentifier) -> [TypeMatchPosition]? {
        unretained.with { context in
            Coordinator.lock.withLock { context.typeCacheStorage.typeMatches[type] }
        }
    }

    func rememberTypeMatches(_ matches: [TypeMatchPosition], for type: ObjectIdentifier) {
        // Positions hold no user object: replacing one releases nothing of the user's under
        // the lock.
        unretained.with { context in
            Coordinator.lock.withLock { context.typeCacheStorage.typeMatches[type] = matches }
        }
    }
}
