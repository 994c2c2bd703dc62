/// What one definition of this context makes, as a lookup by type (`TypeLookup`) asks it: known
/// from the declared type, the cache or a made singleton, or found out by making the object.
extension ApplicationContext {
    /// Whether a definition makes `T`s.
    enum Kind<T> {
        /// No object of the definition is a `T`.
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
        if Creation(of: index, in: self).declaresNoKind(of: T.self) { return .answered(.no) }
        let declared = Creation(of: index, in: self).declaresKind(of: T.self)
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
    func kind<T>(of index: Int, _ type: T.Type) throws(ContextError) -> Kind<T> {
        switch try kindBeforeMaking(index, T.self, waitsSynchronously: true) {
        case let .answered(kind):
            return kind
        case .singleton:
            let made = try Resolution.run(from: nil) { resolution, thread throws(ContextError) -> MadeValue? in
                // A singleton a lookup this one runs inside of is making (this call comes
                // from its `didInject`, say) cannot be looked at yet: left out, not a cycle.
                if isMadeByOuterLookup(index, resolution) { return nil }
                return try SingletonSlot(self, index).made(resolution, thread)
            }
            return try singletonKind(index, made, T.self)
        case .probe:
            let probe = try Resolution.run(from: nil) { resolution, _ throws(ContextError) -> Any? in try self.probe(index, resolution) }
            return try probed(index, probe, T.self)
        }
    }

    /// `kind(of:)` for an async lookup by type.
    func kindAsync<T>(of index: Int, _ type: T.Type) async throws(ContextError) -> Kind<T> {
        switch try kindBeforeMaking(index, T.self, waitsSynchronously: false) {
        case let .answered(kind):
            return kind
        case .singleton:
            let made = try await Resolution.runAsync(from: nil) { resolution async throws(ContextError) -> MadeValue? in
                if isMadeByOuterLookup(index, resolution) { return nil }
                return try await SingletonSlot(self, index).madeAsync(resolution)
            }
            return try singletonKind(index, made, T.self)
        case .probe:
            let probe = try await Resolution.runAsync(from: nil) { resolution async throws(ContextError) -> Any? in
                if isMadeByOuterLookup(index, resolution) { return nil }
                return try await Creation(of: index, in: self).prototypeAsync(resolution) { resolution async throws(ContextError) -> Any in
                    try await Creation(of: index, in: self).constructAsync(resolution).anyValue
                }
            }
            return try probed(index, probe, T.self)
        }
    }

    /// What singleton `index` says once looked at; `nil`: a lookup this one runs inside of is
    /// making it, so its kind stays unknown.
    private func singletonKind<T>(_ index: Int, _ made: MadeValue?, _: T.Type) throws(ContextError) -> Kind<T> {
        guard let made else { return .unknown }
        guard let typed = made.anyValue as? T else { return try notOfKind(index, made.anyValue, T.self) }
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
            if resolution.isMaking(index, of: self, ownLookupOnly: true) { throw Creation(of: index, in: self).prototypeCycle(resolution) }
            return nil
        }
        let thread = ThreadState.current
        resolution.push(self, index, injectInits: thread.injectInits)
        defer { thread.injectInits = resolution.pop() }
        return try Creation(of: index, in: self).runProbe(resolution)
    }
}
