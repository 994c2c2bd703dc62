/// A lookup by type from one context (`object(of:)`, `objects(of:)`, synchronous or awaited): the
/// unshadowed definitions of the chain asked what they make, the matches cached as positions
/// once every one of them is stable. What each definition makes, a `DefinitionKind` finds out.
struct TypeLookup<T> {
    let context: ApplicationContext

    init(_ context: ApplicationContext) { self.context = context }

    /// `ApplicationContext.object(of:)`.
    func object() throws(ContextError) -> T {
        if let positions = try cachedPositions(), positions.count == 1 {
            if let value = madeSingleton(at: positions[0]) { return value }
            return try context.ancestor(positions[0].levels).object.resolve(positions[0].index, as: T.self, from: nil)
        }
        let found = try chainMatches(below: []).found
        if let value = try only(found) { return value }
        return try found[0].context.resolve(found[0].index, as: T.self, from: nil)
    }

    /// `ApplicationContext.objects(of:)`.
    func objects() throws(ContextError) -> [T] {
        var result: [T] = []
        if let positions = try cachedPositions() {
            result.reserveCapacity(positions.count)
            for position in positions {
                if let value = madeSingleton(at: position) {
                    result.append(value)
                } else {
                    result.append(try context.ancestor(position.levels).object.resolve(position.index, as: T.self, from: nil))
                }
            }
            return result
        }
        for match in try chainMatches(below: []).found {
            if let value = match.value {
                result.append(value as! T)
            } else {
                result.append(try match.context.resolve(match.index, as: T.self, from: nil))
            }
        }
        return result
    }

    /// `ApplicationContext.object(of:)`, awaiting what it must make.
    func object() async throws(ContextError) -> T {
        if let positions = try cachedPositions(), positions.count == 1 {
            if let value = madeSingleton(at: positions[0]) { return value }
            return try await context.ancestor(positions[0].levels).object.resolveAsync(positions[0].index, as: T.self, from: nil)
        }
        let found = try await chainMatchesAsync(below: []).found
        if let value = try only(found) { return value }
        return try await found[0].context.resolveAsync(found[0].index, as: T.self, from: nil)
    }

    /// `ApplicationContext.objects(of:)`, awaiting what it must make.
    ///
    /// The synchronous form's loop with `await`s: Swift has no body that blocks for one caller
    /// and awaits for another. Sharing it through a first pass that collects what must be made
    /// (an array of optionals, then the results) made a cached `objects(of:)` about 5 × slower.
    func objects() async throws(ContextError) -> [T] {
        var result: [T] = []
        if let positions = try cachedPositions() {
            result.reserveCapacity(positions.count)
            for position in positions {
                if let value = madeSingleton(at: position) {
                    result.append(value)
                } else {
                    result.append(try await context.ancestor(position.levels).object.resolveAsync(position.index, as: T.self, from: nil))
                }
            }
            return result
        }
        for match in try await chainMatchesAsync(below: []).found {
            if let value = match.value {
                result.append(value as! T)
            } else {
                result.append(try await match.context.resolveAsync(match.index, as: T.self, from: nil))
            }
        }
        return result
    }

    /// The single match's value if it is known without making anything; throws when there is
    /// not exactly one match.
    func only(_ found: [TypeMatch]) throws(ContextError) -> T? {
        guard let first = found.first else {
            throw .noSuchObject(key: String(reflecting: T.self), searched: context.chain.map(\.name), path: [])
        }
        guard found.count == 1 else {
            throw .ambiguousType(type: String(reflecting: T.self), candidates: found.map { $0.context.qualifiedKey($0.index, from: context) })
        }
        // A `T`: the lookup that found it was asked for `T`s.
        return first.value.map { $0 as! T }
    }

    /// Every definition of the chain whose objects are `T`s, unshadowed, in order (a made
    /// singleton's value included): this context's own matches, then its parent's as the
    /// parent's own lookup by type finds them (from the parent's cache once it has them), less
    /// what a context closer to the asker shadows; cached here when they can no longer change.
    /// `below`: the contexts from the asker up to this one's child, asker first (empty for the
    /// asker).
    ///
    /// The parent's matches are its own, kept by the parent: a context made per request under a
    /// large application asks only its own definitions. Walking the whole chain from every fresh
    /// child asked each of the application's definitions again for every request (a lookup by
    /// type in a child of a 200-definition application cost about 90 lookups by key).
    private func chainMatches(below: [ApplicationContext]) throws(ContextError) -> TypeMatches {
        if context.isClosed { throw context.closedError(looking: String(reflecting: T.self)) }
        var matches = TypeMatches(level: below.count)
        for index in 0..<context.count where matches.asks(index, of: context, below: below, for: T.self) {
            matches.add(try DefinitionKind<T>(of: index, in: context).find(), context, index, for: T.self)
        }
        if let parent = context.parent {
            let lookup = TypeLookup(parent)
            if let cached = try lookup.cachedMatches() {
                matches.add(cached, below: below + [context])
            } else {
                matches.add(try lookup.chainMatches(below: below + [context]))
            }
        }
        return matches.finished { found in cache(found) }
    }

    /// `chainMatches` for an async lookup by type.
    private func chainMatchesAsync(below: [ApplicationContext]) async throws(ContextError) -> TypeMatches {
        if context.isClosed { throw context.closedError(looking: String(reflecting: T.self)) }
        var matches = TypeMatches(level: below.count)
        for index in 0..<context.count where matches.asks(index, of: context, below: below, for: T.self) {
            matches.add(try await DefinitionKind<T>(of: index, in: context).findAsync(), context, index, for: T.self)
        }
        if let parent = context.parent {
            let lookup = TypeLookup(parent)
            if let cached = try lookup.cachedMatches() {
                matches.add(cached, below: below + [context])
            } else {
                matches.add(try await lookup.chainMatchesAsync(below: below + [context]))
            }
        }
        return matches.finished { found in cache(found) }
    }

    /// The matches of this context's chain from its cache, made singletons' values read from
    /// their records.
    private func cachedMatches() throws(ContextError) -> [TypeMatch]? {
        guard let positions = try cachedPositions() else { return nil }
        return positions.map { position in
            TypeMatch(context: context.ancestor(position.levels).object, index: position.index, value: madeSingleton(at: position).map { $0 as Any })
        }
    }

    /// The unshadowed definitions of the chain, own first, in declaration order: a definition is
    /// shadowed by one with the same key closer to the asker (an alias shadows nothing: the
    /// parent's definition stays reachable by its other names).
    ///
    /// - Throws: nothing; a closed context in the chain is reported by the lookups made.
    func candidates() -> [(ApplicationContext, Int)] {
        var result: [(ApplicationContext, Int)] = []
        var visited: [ApplicationContext] = []
        for context in context.chain {
            defer { visited.append(context) }
            for index in 0..<context.count {
                let key = context.key(at: index)
                if visited.contains(where: { $0.configuration.table.definition(withKey: key) != nil }) { continue }
                result.append((context, index))
            }
        }
        return result
    }

    /// Where the matches were found last time, if every one of them is stable: every singleton
    /// involved is made (a made singleton never changes), every prototype's kind is known.
    ///
    /// The cache holds positions only (`TypeMatchPosition`), never a context or an object: the
    /// contexts are this one's chain, and a singleton's value is read from its record, as a
    /// lookup by key reads it (`madeSingleton(at:as:)`; a prototype is made anew by every call).
    ///
    /// - Throws: `contextClosed` when a context of the chain is closed.
    func cachedPositions() throws(ContextError) -> [TypeMatchPosition]? {
        if let closed = context.chain.first(where: \.isClosed) { throw closed.closedError(looking: String(reflecting: T.self)) }
        return context.typeCache.typeMatches(for: ObjectIdentifier(T.self))
    }

    /// The made singleton at `position` as a `T`, read from its record without a lock or a
    /// retain of its context; `nil` for a prototype, or a singleton not made.
    func madeSingleton(at position: TypeMatchPosition) -> T? {
        context.ancestor(position.levels).with { context -> T? in
            guard let made = context.records[position.index].published.load(ordering: .acquiring) else { return nil }
            if context.records[position.index].typeID == ObjectIdentifier(T.self) { return made.value(as: T.self) }
            // As a protocol, say: converted once and kept with the singleton (`Conversion`).
            do throws(NotConvertible) {
                return try context.records[position.index].converted(made, as: T.self)
            } catch {
                return nil
            }
        }
    }

    /// Remembers where `matches` are (settled: they no longer change).
    func cache(_ matches: [TypeMatch]) {
        // A validation's scratch context is dropped when it ends.
        guard !context.isValidation, context.typeCache.keepsTypeMatches() else { return }
        // Every match's context is on the chain, and the matches come in its order (this
        // context's, then each parent's): one walk up it, unretained, gives every level (an array
        // of the chain and a search per match cost a fresh child's first lookup by type 500
        // instructions).
        var positions: [TypeMatchPosition] = []
        positions.reserveCapacity(matches.count)
        var level = 0
        var current = Unretained(context)
        for match in matches {
            while !current.refers(to: match.context) {
                current = current.with { $0.parentRef! }
                level += 1
            }
            positions.append(TypeMatchPosition(levels: level, index: match.index))
        }
        context.typeCache.rememberTypeMatches(positions, for: ObjectIdentifier(T.self))
    }
}
