extension ApplicationContext {
    /// The one object, in this context or its parents, whose definition makes a `T` (a protocol,
    /// a superclass, or the type itself).
    ///
    /// Definitions declared to return a `T` (or a subclass) are matched without being made; made
    /// singletons are checked as they are; the others are made once to look: lazy singletons as
    /// on first lookup, prototypes as one discarded instance per queried type, made by their
    /// closure only (never injected, so their `didInject` does not run; the answer is kept).
    /// A child's definition shadows a parent's with the same key.
    ///
    /// - Throws: ``ContextError/noSuchObject(key:searched:path:)`` (with the type's name as key
    ///   and an empty path) when none matches, ``ContextError/ambiguousType(type:candidates:)``
    ///   naming every candidate when several do, ``ContextError/requiresAwait(key:path:)``
    ///   naming the first async definition (in declaration order) it would have to make to find
    ///   out, and any error of making the objects it had to make.
    public func object<T>(of type: T.Type) throws(ContextError) -> T {
        if let positions = try cachedPositions(of: T.self), positions.count == 1 {
            if let value = madeSingleton(at: positions[0], as: T.self) { return value }
            return try ancestor(positions[0].levels).object.resolve(positions[0].index, as: T.self, from: nil)
        }
        let found = try typeMatches(T.self)
        if let value = try only(found, of: T.self) { return value }
        return try found[0].context.resolve(found[0].index, as: T.self, from: nil)
    }

    /// Every object, in this context then its parents, whose definition makes a `T` (protocols
    /// and superclasses match), own definitions in declaration order first.
    ///
    /// Makes what ``object(of:)-8j4bq`` makes to find out; prototypes in the result are new instances.
    /// Once every singleton involved is made, later calls for the same type reuse where the
    /// first one found them.
    ///
    /// - Throws: any error of making the objects it had to make; ``ContextError/requiresAwait(key:path:)``
    ///   for an async definition it would have to make (use the async form).
    public func objects<T>(of type: T.Type) throws(ContextError) -> [T] {
        var result: [T] = []
        if let positions = try cachedPositions(of: T.self) {
            result.reserveCapacity(positions.count)
            for position in positions {
                if let value = madeSingleton(at: position, as: T.self) {
                    result.append(value)
                } else {
                    result.append(try ancestor(position.levels).object.resolve(position.index, as: T.self, from: nil))
                }
            }
            return result
        }
        for match in try typeMatches(T.self) {
            if let value = match.value {
                result.append(value)
            } else {
                result.append(try match.context.resolve(match.index, as: T.self, from: nil))
            }
        }
        return result
    }

    /// ``object(of:)``, making async definitions by awaiting them.
    public func object<T>(of type: T.Type) async throws(ContextError) -> T {
        if let positions = try cachedPositions(of: T.self), positions.count == 1 {
            if let value = madeSingleton(at: positions[0], as: T.self) { return value }
            return try await ancestor(positions[0].levels).object.resolveAsync(positions[0].index, as: T.self, from: nil)
        }
        let found = try await typeMatchesAsync(T.self)
        if let value = try only(found, of: T.self) { return value }
        return try await found[0].context.resolveAsync(found[0].index, as: T.self, from: nil)
    }

    /// ``objects(of:)``, making async definitions by awaiting them.
    public func objects<T>(of type: T.Type) async throws(ContextError) -> [T] {
        var result: [T] = []
        if let positions = try cachedPositions(of: T.self) {
            result.reserveCapacity(positions.count)
            for position in positions {
                if let value = madeSingleton(at: position, as: T.self) {
                    result.append(value)
                } else {
                    result.append(try await ancestor(position.levels).object.resolveAsync(position.index, as: T.self, from: nil))
                }
            }
            return result
        }
        for match in try await typeMatchesAsync(T.self) {
            if let value = match.value {
                result.append(value)
            } else {
                result.append(try await match.context.resolveAsync(match.index, as: T.self, from: nil))
            }
        }
        return result
    }

    /// The single match's value if it is known without making anything; throws when there is
    /// not exactly one match.
    private func only<T>(_ found: [TypeMatch<T>], of type: T.Type) throws(ContextError) -> T? {
        guard let first = found.first else {
            throw .noSuchObject(key: String(reflecting: T.self), searched: chain.map(\.name), path: [])
        }
        guard found.count == 1 else {
            throw .ambiguousType(type: String(reflecting: T.self), candidates: found.map { $0.context.qualifiedKey($0.index, from: self) })
        }
        return first.value
    }

    /// Every definition of the chain whose objects are `T`s, unshadowed, in order. A made
    /// singleton's value is included.
    private func typeMatches<T>(_ type: T.Type) throws(ContextError) -> [TypeMatch<T>] {
        var matches = TypeMatches<T>()
        for (context, index) in candidates(of: T.self) {
            matches.add(try context.kind(of: index, T.self), context, index)
        }
        return matches.finished(caching: self)
    }

    /// `typeMatches` for an async lookup by type: what must be made to find out is awaited.
    private func typeMatchesAsync<T>(_ type: T.Type) async throws(ContextError) -> [TypeMatch<T>] {
        var matches = TypeMatches<T>()
        for (context, index) in candidates(of: T.self) {
            matches.add(try await context.kindAsync(of: index, T.self), context, index)
        }
        return matches.finished(caching: self)
    }

    /// The matches found so far, and whether every candidate's kind was known (only then are
    /// they cached).
    private struct TypeMatches<T> {
        var found: [TypeMatch<T>] = []
        var complete = true

        mutating func add(_ kind: Kind<T>, _ context: ApplicationContext, _ index: Int) {
            switch kind {
            case .no: break
            case .unknown: complete = false
            case let .yes(value): found.append(TypeMatch(context: context, index: index, value: value))
            }
        }

        func finished(caching context: ApplicationContext) -> [TypeMatch<T>] {
            if complete { context.cache(found) }
            return found
        }
    }

    /// The unshadowed definitions of the chain, own first, in declaration order.
    ///
    /// - Throws: nothing; a closed context in the chain is reported by the lookups made.
    private func candidates<T>(of type: T.Type) -> [(ApplicationContext, Int)] {
        var result: [(ApplicationContext, Int)] = []
        var visited: [ApplicationContext] = []
        for context in chain {
            defer { visited.append(context) }
            for index in 0..<context.count {
                let key = context.table.keys[index]
                if visited.contains(where: { $0.table.definition(named: key) != nil }) { continue }
                result.append((context, index))
            }
        }
        return result
    }

    private enum Kind<T> {
        case no
        /// A `T`; its value when it is a singleton (made now if it was not).
        case yes(T?)
        /// Not known now (a prototype an outer lookup is making): left out, and nothing cached.
        case unknown
    }

    /// What an object of definition `index` that is not a `T` here says: `.no`, unless it is a
    /// `T` on the main actor only (its conformance is isolated there), which is an error rather
    /// than an object silently left out.
    private func notOfKind<T>(_ index: Int, _ value: Any, _: T.Type) throws(ContextError) -> Kind<T> {
        guard IsolatedConformance.isolates(value, from: T.self) else { return .no }
        throw .mismatch(table.keys[index], value, as: T.self, path: [table.keys[index]])
    }

    /// What can be said of definition `index`'s kind before anything is made, or what must be
    /// made to find out: the one decision of both forms of `kind`. A synchronous lookup refuses
    /// what it would have to await.
    private enum KindQuestion<T> {
        case answered(Kind<T>)
        /// The singleton must be looked at (made if it is not).
        case singleton
        /// The prototype's closure must be run once to see what it makes.
        case probe
    }

    private func kindBeforeMaking<T>(_ index: Int, _: T.Type, waitsSynchronously: Bool) throws(ContextError) -> KindQuestion<T> {
        if isClosed { throw closedError(looking: table.keys[index]) }
        if declaresNoKind(index, of: T.self) { return .answered(.no) }
        let declared = declaresKind(index, of: T.self)
        if records[index].scope.isSingleton {
            if waitsSynchronously && records[index].isAsync && !isMade(index) { throw requiresAwait(index, nil) }
            if declared && !isMade(index) { return .answered(.yes(nil)) }
            return .singleton
        }
        if declared { return .answered(.yes(nil)) }
        if let known = typeCache.kind(of: index, is: ObjectIdentifier(T.self)) { return .answered(known ? .yes(nil) : .no) }
        if waitsSynchronously && records[index].isAsync { throw requiresAwait(index, nil) }
        return .probe
    }

    /// Whether definition `index` makes `T`s, finding out synchronously.
    private func kind<T>(of index: Int, _ type: T.Type) throws(ContextError) -> Kind<T> {
        switch try kindBeforeMaking(index, T.self, waitsSynchronously: true) {
        case let .answered(kind):
            return kind
        case .singleton:
            let box = try Resolution.run(from: nil) { resolution, thread throws(ContextError) -> AnyBox? in
                // A singleton a lookup this one runs inside of is making (this call comes
                // from its `didInject`, say) cannot be looked at yet: left out, not a cycle.
                if isMadeByOuterLookup(index, resolution) { return nil }
                return try singletonBox(index, resolution, thread)
            }
            return try singletonKind(index, box, T.self)
        case .probe:
            let probe = try Resolution.run(from: nil) { resolution, _ throws(ContextError) -> Any? in try self.probe(index, resolution) }
            return try probed(index, probe, T.self)
        }
    }

    /// `kind(of:)` for an async lookup by type.
    private func kindAsync<T>(of index: Int, _ type: T.Type) async throws(ContextError) -> Kind<T> {
        switch try kindBeforeMaking(index, T.self, waitsSynchronously: false) {
        case let .answered(kind):
            return kind
        case .singleton:
            let box = try await Resolution.runAsync(from: nil) { resolution async throws(ContextError) -> AnyBox? in
                if isMadeByOuterLookup(index, resolution) { return nil }
                return try await singletonBoxAsync(index, resolution)
            }
            return try singletonKind(index, box, T.self)
        case .probe:
            let probe = try await Resolution.runAsync(from: nil) { resolution async throws(ContextError) -> Any? in
                if isMadeByOuterLookup(index, resolution) { return nil }
                return try await makePrototypeAsync(index, resolution) { resolution async throws(ContextError) -> Any in
                    try await runProbeAsync(index, resolution)
                }
            }
            return try probed(index, probe, T.self)
        }
    }

    /// What singleton `index` says once looked at; `nil`: a lookup this one runs inside of is
    /// making it, so its kind stays unknown.
    private func singletonKind<T>(_ index: Int, _ box: AnyBox?, _: T.Type) throws(ContextError) -> Kind<T> {
        guard let box else { return .unknown }
        guard let typed = box.anyValue as? T else { return try notOfKind(index, box.anyValue, T.self) }
        return .yes(typed)
    }

    /// What a type probe of prototype `index` says, remembered; the probe itself is the made
    /// instance when its type has nothing to inject (its closure made it completely). `nil`: the
    /// probe could not run now, so its kind stays unknown.
    private func probed<T>(_ index: Int, _ probe: Any?, _ type: T.Type) throws(ContextError) -> Kind<T> {
        guard let probe else { return .unknown }
        guard let typed = probe as? T else {
            let kind = try notOfKind(index, probe, T.self)
            typeCache.rememberKind(of: index, is: ObjectIdentifier(T.self), false)
            return kind
        }
        typeCache.rememberKind(of: index, is: ObjectIdentifier(T.self), true)
        return .yes(InjectionPlan.of(Swift.type(of: probe)).hasNothingToInject ? typed : nil)
    }

    /// Whether definition `index` (a singleton not made yet, or a prototype) is being made by a
    /// lookup that `resolution` is nested in (not by `resolution`'s own lookup, where asking again
    /// is a cycle).
    func isMadeByOuterLookup(_ index: Int, _ resolution: Resolution) -> Bool {
        !isMade(index) && resolution.isMaking(index, of: self) && !resolution.isMaking(index, of: self, ownLookupOnly: true)
    }

    /// Runs prototype `index`'s closure only (a type probe), with its frame on the path; `nil`
    /// when a lookup this one runs inside of is making it right now (from its `didInject`, say):
    /// its kind stays unknown, and it is left out, rather than reported as a cycle that is not
    /// in the user's code.
    private func probe(_ index: Int, _ resolution: Resolution) throws(ContextError) -> Any? {
        if records[index].isAsync { throw requiresAwait(index, resolution) }
        if resolution.isMaking(index, of: self) {
            if resolution.isMaking(index, of: self, ownLookupOnly: true) { throw prototypeCycle(index, resolution) }
            return nil
        }
        let thread = ThreadState.current
        resolution.push(self, index, injectInits: thread.injectInits)
        defer { thread.injectInits = resolution.pop() }
        return try runProbe(index, resolution)
    }

    // MARK: The cache of matches

    /// Where the matches were found last time, if every one of them is stable: every singleton
    /// involved is made (a made singleton never changes), every prototype's kind is known.
    ///
    /// The cache holds positions only (`TypeMatchPosition`), never a context or an object: the
    /// contexts are this one's chain, and a singleton's value is read from its record, as a
    /// lookup by key reads it (`madeSingleton(at:as:)`; a prototype is made anew by every call).
    ///
    /// - Throws: `contextClosed` when a context of the chain is closed.
    private func cachedPositions<T>(of type: T.Type) throws(ContextError) -> [TypeMatchPosition]? {
        if let closed = chain.first(where: \.isClosed) { throw closed.closedError(looking: String(reflecting: T.self)) }
        return typeCache.typeMatches(for: ObjectIdentifier(T.self))
    }

    /// The made singleton at `position` as a `T`, read from its record without a lock or a
    /// retain of its context; `nil` for a prototype, or a singleton not made.
    private func madeSingleton<T>(at position: TypeMatchPosition, as type: T.Type) -> T? {
        ancestor(position.levels).with { context -> T? in
            guard let made = context.records[position.index].published.load(ordering: .acquiring) else { return nil }
            if context.records[position.index].typeID == ObjectIdentifier(T.self) { return made.value(as: T.self) }
            func cast<Object>(_: Object.Type) -> T? { made[as: Object.self] as? T }
            return cast(context.records[position.index].objectType)
        }
    }

    fileprivate func cache<T>(_ matches: [TypeMatch<T>]) {
        guard !isValidation else { return }
        // Only once every singleton of the chain is made: until then a later call may find a
        // lazy singleton's dynamic type differently declared (it is made then).
        let contexts = Array(chain)
        for context in contexts {
            for index in 0..<context.count where context.records[index].scope.isSingleton && !context.isMade(index) { return }
        }
        // Every match's context is on the chain: `candidates` walks it.
        let positions = matches.map { match in
            TypeMatchPosition(levels: contexts.firstIndex { $0 === match.context }!, index: match.index)
        }
        typeCache.rememberTypeMatches(positions, for: ObjectIdentifier(T.self))
    }

    /// The keys of the chain's unshadowed definitions whose declared type satisfies `matches`.
    func unshadowedKeys(declaredAs matches: (ObjectIdentifier) -> Bool) -> [String] {
        candidates(of: Any.self).filter { matches($0.0.records[$0.1].typeID) }.map { $0.0.table.keys[$0.1] }
    }

    /// `key`, or `Context.key` when the definition belongs to another context than `asker`.
    func qualifiedKey(_ index: Int, from asker: ApplicationContext) -> String {
        let key = configuration.table.keys[index]
        return self === asker ? key : "\(name).\(key)"
    }
}
