extension ApplicationContext {
    /// The object named `keyOrAlias`, made by an async lookup if needed: async definitions are
    /// awaited, and a singleton another task or thread is making is waited for by suspending,
    /// never by blocking a thread.
    ///
    /// ```swift
    /// let report: Report = try await app.object("report")
    /// ```
    /// A made singleton costs what the synchronous lookup costs: no suspension, no lock, and no
    /// executor hop — the lookup runs on the caller's actor (`nonisolated(nonsending)`), and only
    /// making something moves off it.
    ///
    /// - Throws: what ``object(_:as:)`` throws; a task cancelled while it waits for a singleton
    ///   another task is making stops waiting with
    ///   ``ContextError/creationFailed(key:path:underlying:)`` wrapping `CancellationError`.
    @inlinable
    nonisolated(nonsending) public func object<T>(_ keyOrAlias: String, as type: T.Type = T.self) async throws(ContextError) -> T {
        // Only the made singleton is inlined into the caller: every other branch (and its
        // suspension point) would be part of the caller's async frame on every lookup.
        var hash: UInt32 = 0
        if let made = _made(named: keyOrAlias, type: ObjectIdentifier(T.self), hash: &hash) {
            return made.value(as: T.self)
        }
        return try await _objectAsync(named: keyOrAlias, hash: hash, as: T.self, from: nil)
    }

    /// The hot path of an async lookup: a made singleton of this open context or an open
    /// parent, declared as `type`, under an ASCII name; else `nil`, and `hash` is the name's hash
    /// if it was computed (0 otherwise), so the slow path does not hash it again.
    @usableFromInline
    func _made(named name: String, type: ObjectIdentifier, hash: inout UInt32) -> ValueSlot? {
        guard !isClosed else { return nil }
        hash = NameTable.hash(name)
        guard hash != 0 else { return nil }
        if let index = configuration.table.definition(named: name, hash: hash) {
            guard records[index].typeID == type else { return nil }
            return records[index].published.load(ordering: .acquiring)
        }
        // A name of a parent (a request context's lookup of its application's singleton):
        // answered here too, without the slow path's task frames. The slot lies in the parent,
        // which this context keeps alive.
        guard case let .found(context, index, _) = walk(to: (name, hash), fromParent: true) else { return nil }
        return context.with { $0.records[index].typeID == type ? $0.records[index].published.load(ordering: .acquiring) : nil }
    }

    /// Finds `name` and returns a made singleton without making anything: `.made` (declared as
    /// `type`, or its kept conversion to it), `.convertible` (declared otherwise),
    /// `.needsConversion` (not made), `.notFound`.
    ///
    /// - Throws: `contextClosed` when the walk reaches a closed context.
    @usableFromInline
    func _peek(named name: String, type: ObjectIdentifier, from requester: Requester?) throws(ContextError) -> Outcome {
        switch walk(to: NameTable.lookupKey(name)) {
        case .missing:
            return .notFound
        case let .closed(context):
            throw context.object.closedError(looking: name)
        case let .found(context, index, levels):
            requester?.recordEdge(to: index, levels: levels)
            return context.with { context in
                guard let made = context.records[index].published.load(ordering: .acquiring) else { return .needsConversion(Unretained(context), index: index) }
                return context.records[index].outcome(ofMade: made, as: type)
            }
        }
    }

    /// The slow path of an async lookup: find (`hash`: the name's, or 0 if not computed), make
    /// if needed (async), convert.
    @usableFromInline
    func _objectAsync<T>(named name: String, hash: UInt32 = 0, as type: T.Type, from requester: AsyncRequester?) async throws(ContextError) -> T {
        let found = try locateOpen(hash == 0 ? NameTable.lookupKey(name) : (name, hash), named: name, from: requester)
        // A made singleton declared as `T` (a closure's lookup, say) is copied out here, without
        // `resolveAsync`'s task frame.
        if found.context.records[found.index].typeID == ObjectIdentifier(T.self),
           let made = found.context.records[found.index].published.load(ordering: .acquiring) {
            return made.value(as: T.self)
        }
        do {
            return try await found.context.resolveAsync(found.index, as: T.self, from: requester)
        } catch {
            throw error.lookedUp(as: name, in: self)
        }
    }

    /// `locateOpen(_:named:path:)` for an async lookup from `requester`, whose dependency edge
    /// is noted.
    private func locateOpen(_ key: LookupKey, named name: String, from requester: AsyncRequester?) throws(ContextError) -> (context: ApplicationContext, index: Int) {
        let found = try locateOpen(key, named: name, path: (requester?.path ?? []) + [name])
        requester?.noteLookup(to: found.index, levels: found.levels)
        return (found.context, found.index)
    }

    /// The object of definition `index`, made by an async lookup if needed, as a `T`.
    func resolveAsync<T>(_ index: Int, as type: T.Type, from requester: AsyncRequester?) async throws(ContextError) -> T {
        if let made = records[index].published.load(ordering: .acquiring) {
            if records[index].typeID == ObjectIdentifier(T.self) { return made.value(as: T.self) }
            return try converted(index, made, as: T.self) { (requester?.path ?? []) + [$0] }
        }
        let made = try await Resolution.runAsync(from: requester) { resolution async throws(ContextError) -> MadeValue in
            try await Creation(of: index, in: self).madeAsync(in: resolution)
        }
        if made.typeID == ObjectIdentifier(T.self) { return made.value(as: T.self) }
        return try cast(made, of: index, in: self, as: T.self, from: requester)
    }
}

/// A made object of definition `index` of `context` whose declared type is not `T`, as a `T`.
/// Apart from `resolveAsync`: the runtime's `Optional<T>` metadata the cast needs is asked for
/// on entry to the function that casts, whichever branch runs.
@inline(never)
private func cast<T>(_ made: MadeValue, of index: Int, in context: ApplicationContext, as _: T.Type, from requester: AsyncRequester?) throws(ContextError) -> T {
    let value = made.anyValue
    if let typed = value as? T { return typed }
    throw context.mismatch(index, value, as: T.self) { (requester?.path ?? []) + [$0] }
}
