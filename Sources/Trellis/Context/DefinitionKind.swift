/// What one definition of a context makes, as a lookup by type (`TypeLookup`) asks it: known
/// from the declared type, the cache or a made singleton, or found out by making the object.
struct DefinitionKind<T> {
    let context: ApplicationContext
    let index: Int

    init(of index: Int, in context: ApplicationContext) {
        self.context = context
        self.index = index
    }

    /// What an object of the definition that is not a `T` here says: `.no`, unless it is a `T`
    /// on the main actor only (its conformance is isolated there), which is an error rather than
    /// an object silently left out.
    private func notOfKind(_ value: Any) throws(ContextError) -> KindAnswer {
        guard IsolatedConformance.isolates(value, from: T.self) else { return .no }
        let key = context.key(at: index)
        throw .mismatch(key, value, as: T.self, path: [key])
    }

    /// What can be said of the definition's kind before anything is made, or what must be made
    /// to find out: the one decision of both forms of `find`. A synchronous lookup refuses what
    /// it would have to await.
    private func beforeMaking(waitsSynchronously: Bool) throws(ContextError) -> KindQuestion {
        if context.isClosed { throw context.closedError(looking: context.key(at: index)) }
        let creation = Creation(of: index, in: context)
        if creation.declaresNoKind(of: T.self) { return .answered(.no) }
        let declared = creation.declaresKind(of: T.self)
        let isAsync = context.records[index].isAsync
        if context.records[index].scope.isSingleton {
            if waitsSynchronously && isAsync && !context.isMade(index) { throw context.requiresAwait(index, nil) }
            if declared && !context.isMade(index) { return .answered(.yes(nil)) }
            return .singleton
        }
        if declared { return .answered(.yes(nil)) }
        if let known = context.typeCache.kind(of: index, is: ObjectIdentifier(T.self)) { return .answered(known ? .yes(nil) : .no) }
        if waitsSynchronously && isAsync { throw context.requiresAwait(index, nil) }
        return .probe
    }

    /// Whether the definition makes `T`s, finding out synchronously.
    func find() throws(ContextError) -> KindAnswer {
        switch try beforeMaking(waitsSynchronously: true) {
        case let .answered(kind):
            return kind
        case .singleton:
            let made = try Resolution.run(from: nil) { resolution, thread throws(ContextError) -> MadeValue? in
                // A singleton a lookup this one runs inside of is making (this call comes
                // from its `didInject`, say) cannot be looked at yet: left out, not a cycle.
                if isMadeByOuterLookup(resolution) { return nil }
                return try SingletonSlot(context, index).made(resolution, thread)
            }
            return try singletonKind(made)
        case .probe:
            let probe = try Resolution.run(from: nil) { resolution, _ throws(ContextError) -> Any? in try self.probe(resolution) }
            return try probed(probe)
        }
    }

    /// `find` for an async lookup by type.
    func findAsync() async throws(ContextError) -> KindAnswer {
        switch try beforeMaking(waitsSynchronously: false) {
        case let .answered(kind):
            return kind
        case .singleton:
            let made = try await Resolution.runAsync(from: nil) { resolution async throws(ContextError) -> MadeValue? in
                if isMadeByOuterLookup(resolution) { return nil }
                return try await SingletonSlot(context, index).madeAsync(resolution)
            }
            return try singletonKind(made)
        case .probe:
            let probe = try await Resolution.runAsync(from: nil) { resolution async throws(ContextError) -> Any? in
                guard try mayProbe(resolution) else { return nil }
                resolution.push(context, index, injectInits: 0)
                defer { resolution.pop() }
                let creation = Creation(of: index, in: context)
                if let synchronous = try creation.constructWithoutAwait(resolution) { return synchronous.anyValue }
                return try await creation.constructAsync(resolution).anyValue
            }
            return try probed(probe)
        }
    }

    /// What the singleton says once looked at; `nil`: a lookup this one runs inside of is making
    /// it, so its kind stays unknown.
    private func singletonKind(_ made: MadeValue?) throws(ContextError) -> KindAnswer {
        guard let made else { return .unknown }
        guard let typed = made.anyValue as? T else { return try notOfKind(made.anyValue) }
        return .yes(typed as Any)
    }

    /// What a type probe of the prototype says, remembered; the probe itself is the made
    /// instance when its type has nothing to inject (its closure made it completely). `nil`: the
    /// probe could not run now, so its kind stays unknown.
    private func probed(_ probe: Any?) throws(ContextError) -> KindAnswer {
        guard let probe else { return .unknown }
        guard let typed = probe as? T else {
            let kind = try notOfKind(probe)
            context.typeCache.rememberKind(of: index, is: ObjectIdentifier(T.self), false)
            return kind
        }
        context.typeCache.rememberKind(of: index, is: ObjectIdentifier(T.self), true)
        return .yes(InjectionPlan.of(Swift.type(of: probe)).hasNothingToInject ? typed as Any : nil)
    }

    /// Whether the definition (a singleton not made yet, or a prototype) is being made by a
    /// lookup that `resolution` is nested in (not by `resolution`'s own lookup, where asking again
    /// is a cycle).
    private func isMadeByOuterLookup(_ resolution: Resolution) -> Bool {
        !context.isMade(index) && resolution.isMaking(index, of: context) && !resolution.isMaking(index, of: context, ownLookupOnly: true)
    }

    /// Runs the prototype's closure only (a type probe), with its frame on the path; `nil` when
    /// it may not run now (`mayProbe`). A probe is not the prototype's first object: its
    /// properties are not injected, so it records no edges and notes no start-up.
    private func probe(_ resolution: Resolution) throws(ContextError) -> Any? {
        guard try mayProbe(resolution) else { return nil }
        let thread = ThreadState.current
        resolution.push(context, index, injectInits: thread.injectInits)
        defer { thread.injectInits = resolution.pop() }
        return try Creation(of: index, in: context).runProbe(resolution)
    }

    /// Whether the prototype's closure may run as a probe in `resolution`: not when a lookup this
    /// one runs inside of is making it right now (from its `didInject`, say), where its kind
    /// stays unknown and it is left out rather than reported as a cycle that is not in the
    /// user's code; making it in this lookup already is a cycle.
    private func mayProbe(_ resolution: Resolution) throws(ContextError) -> Bool {
        guard resolution.isMaking(index, of: context) else { return true }
        if resolution.isMaking(index, of: context, ownLookupOnly: true) { throw Creation(of: index, in: context).prototypeCycle(resolution) }
        return false
    }
}

/// What `DefinitionKind.beforeMaking` decides. Not nested in `DefinitionKind<T>`, for the reason
/// `KindAnswer` is not.
private enum KindQuestion {
    case answered(KindAnswer)
    /// The singleton must be looked at (made if it is not).
    case singleton
    /// The prototype's closure must be run once to see what it makes.
    case probe
}
