extension ApplicationContext {
    /// The object named `keyOrAlias`, found in this context's keys and aliases, then in the
    /// parent chain; made first if it is a prototype or a singleton not made yet.
    ///
    /// ```swift
    /// let mailer: Mailer = try context.object("mailer")
    /// let same = try context.object("MAILER", as: Mailer.self)
    /// ```
    ///
    /// - Throws: ``ContextError/noSuchObject(key:searched:path:)`` when no context in the chain
    ///   answers to the name, ``ContextError/typeMismatch(key:expected:actual:path:)`` when the
    ///   object is not a `T`, ``ContextError/contextClosed(context:key:)`` once this context (or
    ///   a parent the lookup reaches) is closed, ``ContextError/requiresAwait(key:path:)`` for an
    ///   async definition not made yet, and any error of making it
    ///   (``ContextError/creationFailed(key:path:underlying:)``,
    ///   ``ContextError/circularDependency(path:)``, …).
    @inlinable
    public func object<T>(_ keyOrAlias: String, as type: T.Type = T.self) throws(ContextError) -> T {
        // Inlined so the caller's specialisation copies a made singleton straight out of the
        // cache, and has a prototype made straight into its own stack memory.
        try ValueSlot.making(T.self) { result throws(ContextError) in try _object(named: keyOrAlias, as: T.self, into: result) }
    }

    /// `object(_:as:)` into `result`, empty memory for a `T`: for a caller that keeps the object
    /// in memory of its own (a lazy property's first read, which unspecialised would otherwise
    /// fetch `Optional<T>`'s metadata for the temporary of `ValueSlot.making`).
    @inlinable
    func _object<T>(named keyOrAlias: String, as _: T.Type, into result: ValueSlot) throws(ContextError) {
        let outcome = try _object(named: keyOrAlias, type: ObjectIdentifier(T.self), into: result, from: nil)
        try _complete(outcome, named: keyOrAlias, as: T.self, into: result, from: nil, wrapsInline: true)
    }

    /// Finishes a lookup of `keyOrAlias` as a `T` into `result` after the non-generic part
    /// answered `outcome`: the one place every synchronous lookup by name (the context's, a
    /// resolver's, a property's) turns an outcome into the object. A made singleton is copied
    /// out; one declared as another type is wrapped when `T` is an optional of that type, else
    /// converted by the generic path, as is anything left to it (`.needsConversion`); a name no
    /// context answers to throws `noSuchObject` there.
    ///
    /// `wrapsInline`: the optional is wrapped here, in the caller's specialised code (the
    /// context's own lookup: `object("config", as: Config?.self)` costs a fifth of what it does
    /// out of line), rather than out of line (a resolver's lookup, inlined in every user closure,
    /// where the extra code costs every lookup about 30 instructions).
    @inlinable @inline(__always)
    func _complete<T>(_ outcome: Outcome, named keyOrAlias: String, as _: T.Type, into result: ValueSlot, from requester: Requester?, wrapsInline: Bool) throws(ContextError) {
        switch outcome {
        case let .made(made): result.initialize(as: T.self, to: made.value(as: T.self))
        case .madeInto: break
        case let .convertible(made, declared) where wrapsInline:
            if result.initializeOptional(as: T.self, wrapping: made, declared: declared) { break }
            try _completeSlowly(outcome, named: keyOrAlias, as: T.self, into: result, from: requester)
        case .convertible, .needsConversion, .notFound: try _completeSlowly(outcome, named: keyOrAlias, as: T.self, into: result, from: requester)
        }
    }

    /// `_complete` for anything but an object of the requested type. Out of line: every
    /// resolver call in a user's closure inlines `_complete`.
    @usableFromInline @inline(never)
    func _completeSlowly<T>(_ outcome: Outcome, named keyOrAlias: String, as _: T.Type, into result: ValueSlot, from requester: Requester?) throws(ContextError) {
        if case let .convertible(made, declared) = outcome, result.initializeOptional(as: T.self, wrapping: made, declared: declared) { return }
        result.initialize(as: T.self, to: try _object(named: keyOrAlias, as: T.self, from: requester, after: outcome))
    }

    /// A lookup that does not say its type, which cannot compile: the message says how to give it.
    @available(*, unavailable, message: "say which type you want: `let clock: Clock = try context.object(\"clock\")` or `try context.object(\"clock\", as: Clock.self)`")
    public func object(_ keyOrAlias: String) -> UnannotatedLookup {
        fatalError("unavailable")
    }

    /// Whether this context or one of its parents answers to `keyOrAlias` (closed or not).
    public func contains(_ keyOrAlias: String) -> Bool {
        definition(answering: NameTable.lookupKey(keyOrAlias)) != nil
    }

    /// What `_object(named:type:into:from:)` did.
    @usableFromInline
    enum Outcome {
        /// The made singleton, of the requested type, is in this slot: its published value, or
        /// its kept conversion to that type (`DefinitionRecord.keptConversion`).
        case made(ValueSlot)
        /// A new object, of the requested type, was written into the caller's memory.
        case madeInto
        /// A made singleton declared with another type (identified): the caller converts it.
        case convertible(ValueSlot, ObjectIdentifier)
        /// An object not made (a prototype, or a singleton nobody made yet) whose making the
        /// inlined caller leaves to the generic path (declared with another type, or asked for
        /// by an async lookup), of definition `index` of the context given (this one or a
        /// parent, which it keeps alive), its edge recorded:
        /// `_object(named:as:from:after:)` makes and converts it without walking the chain again.
        case needsConversion(Unretained<ApplicationContext>, index: Int)
        /// No context in the chain answers to the name.
        case notFound
    }

    /// The lookup, not generic: finds `name` once; returns a made singleton declared as `type`
    /// without a lock, an allocation or a retain of any context on the chain (the hot path);
    /// else makes the object and, if it is declared as `type`, moves it into `result`.
    @usableFromInline
    func _object(named name: String, type: ObjectIdentifier, into result: ValueSlot, from requester: Requester?) throws(ContextError) -> Outcome {
        if isClosed { throw closedError(looking: name) }
        let hash = NameTable.hash(name)
        do {
            if hash == 0 { return try _objectNamedNonASCII(name, type: type, into: result, from: requester) }
            return try _object(named: name, hash: hash, type: type, into: result, from: requester)
        } catch {
            throw error.lookedUp(as: name, in: self)
        }
    }

    /// `_object` for a name with non-ASCII characters: normalised first (names compare as Swift
    /// strings), then looked up as any other.
    @inline(never)
    private func _objectNamedNonASCII(_ name: String, type: ObjectIdentifier, into result: ValueSlot, from requester: Requester?) throws(ContextError) -> Outcome {
        let key = NameTable.nonASCIILookupKey(name)
        return try _object(named: key.name, hash: key.hash, type: type, into: result, from: requester)
    }

    @inline(__always)
    private func _object(named name: String, hash: UInt32, type: ObjectIdentifier, into result: ValueSlot, from requester: Requester?) throws(ContextError) -> Outcome {
        if let index = configuration.table.definition(named: name, hash: hash) {
            if let requester { try requester.noteLookup(of: self, index, levels: 0) }
            if let made = records[index].published.load(ordering: .acquiring) { return records[index].outcome(ofMade: made, as: type) }
            guard records[index].typeID == type else { return .needsConversion(Unretained(self), index: index) }
            try Creation(of: index, in: self).make(into: result, from: requester)
            return .madeInto
        }
        return try _objectInParents(named: name, hash: hash, type: type, into: result, from: requester)
    }

    /// `_object` for a name this context does not define: the chain's walk from the parent,
    /// and a made singleton found there returned without retaining any context.
    private func _objectInParents(named name: String, hash: UInt32, type: ObjectIdentifier, into result: ValueSlot, from requester: Requester?) throws(ContextError) -> Outcome {
        switch walk(to: (name, hash), fromParent: true) {
        case .missing:
            return .notFound
        case let .closed(context):
            throw context.object.closedError(looking: name)
        case let .found(context, index, levels):
            let made = context.with { parent -> Outcome? in
                // An async or main-actor definition takes `noteLookup`'s rules even when made.
                if parent.records[index].hasSynchronousUseRules, requester != nil { return nil }
                requester?.recordEdge(to: index, levels: levels)
                guard let made = parent.records[index].published.load(ordering: .acquiring) else { return nil }
                return parent.records[index].outcome(ofMade: made, as: type)
            }
            if let made { return made }
            let parent = context.object
            if let requester { try requester.noteLookup(of: parent, index, levels: levels) }
            if let made = parent.records[index].published.load(ordering: .acquiring) { return parent.records[index].outcome(ofMade: made, as: type) }
            guard parent.records[index].typeID == type else { return .needsConversion(context, index: index) }
            try Creation(of: index, in: parent).make(into: result, from: requester)
            return .madeInto
        }
    }

    /// The slow path of a lookup: find, make if needed, convert.
    @usableFromInline
    func _object<T>(named name: String, as type: T.Type, from requester: Requester?) throws(ContextError) -> T {
        let found = try locateOpen(name, from: requester)
        do {
            return try found.context.resolve(found.index, as: T.self, from: requester)
        } catch {
            throw error.lookedUp(as: name, in: self)
        }
    }

    /// The object named `name` as a `T`, after `_object(named:type:into:from:)` answered
    /// `outcome` (anything but an object of the requested type; a `.convertible` made singleton
    /// is looked up again here, rare enough to walk twice): a definition it found but left to the generic
    /// path (`.needsConversion`) is made and converted without walking the chain again, its
    /// lookup already noted; otherwise the name is looked up again, and a missing one throws.
    /// Kept out of line: the inlined callers pass the outcome on.
    @usableFromInline
    func _object<T>(named name: String, as type: T.Type, from requester: Requester?, after outcome: Outcome) throws(ContextError) -> T {
        if case let .needsConversion(found, index) = outcome {
            return try found.with { context throws(ContextError) -> T in try context.resolve(index, as: T.self, from: requester) }
        }
        return try _object(named: name, as: T.self, from: requester)
    }

    /// The definition answering to `key` in this context or the nearest parent, closed or not,
    /// and how many parents up.
    func definition(answering key: LookupKey) -> (context: ApplicationContext, index: Int, levels: Int)? {
        guard case let .found(context, index, levels) = walk(to: key, passingClosed: true) else { return nil }
        return (context.object, index, levels)
    }

    /// `locateOpen(_:named:path:)` for a lookup from `requester`, whose dependency edge is noted.
    func locateOpen(_ name: String, from requester: Requester?) throws(ContextError) -> (context: ApplicationContext, index: Int, levels: Int) {
        let found = try locateOpen(NameTable.lookupKey(name), named: name, path: Resolution.path(of: requester, appending: name))
        if let requester { try requester.noteLookup(of: found.context, found.index, levels: found.levels) }
        return found
    }

    /// The object of definition `index`, made if needed, as a `T`.
    func resolve<T>(_ index: Int, as type: T.Type, from requester: Requester?) throws(ContextError) -> T {
        if let made = records[index].published.load(ordering: .acquiring) {
            if records[index].typeID == ObjectIdentifier(T.self) { return made.value(as: T.self) }
            return try converted(index, made, as: T.self) { Resolution.path(of: requester, appending: $0) }
        }
        return try resolveUnmade(index, as: T.self, from: requester)
    }

    /// The made singleton of definition `index`, whose published value is `made`, as a `T`
    /// other than its declared type: converted once and kept (`DefinitionRecord.converted`).
    /// `path` gives the lookup's path to the definition's key, for the mismatch.
    func converted<T>(_ index: Int, _ made: ValueSlot, as _: T.Type, path: (String) -> [String]) throws(ContextError) -> T {
        do throws(NotConvertible) {
            return try records[index].converted(made, as: T.self)
        } catch {
            throw mismatch(index, records[index].madeValue(made), as: T.self, path: path)
        }
    }

    /// `resolve` for an object not made yet (or a prototype).
    @inline(never)
    private func resolveUnmade<T>(_ index: Int, as type: T.Type, from requester: Requester?) throws(ContextError) -> T {
        if records[index].typeID == ObjectIdentifier(T.self) { return try resolveUnmadeDeclared(index, as: T.self, from: requester) }
        if records[index].isClassType {
            // An instance of a class type: cast by `ObjectCast`, without the runtime after the
            // first object of its class.
            let object = try ValueSlot.making(AnyObject.self) { result throws(ContextError) in
                try Creation(of: index, in: self).make(into: result, from: requester)
            }
            // On the heap, not in a temporary: a throwing closure returning the `T` would carry it
            // out through a `Result`, whose metadata this unspecialised code would fetch.
            let result = ValueSlot.allocate(for: T.self)
            defer { result.deallocate() }
            if ObjectCast.cast(object, to: T.self, into: result) == .failed {
                throw mismatch(index, object, as: T.self) { Resolution.path(of: requester, appending: $0) }
            }
            return result.move(as: T.self)
        }
        return try resolveUnmadeValue(index, as: T.self, from: requester)
    }

    /// `resolveUnmade` for a `T` that is the definition's declared type. Apart, for the same
    /// reason as `resolveUnmadeValue` (`making` holds an optional of `T`).
    @inline(never)
    private func resolveUnmadeDeclared<T>(_ index: Int, as type: T.Type, from requester: Requester?) throws(ContextError) -> T {
        try ValueSlot.making(T.self) { result throws(ContextError) in
            try Creation(of: index, in: self).make(into: result, from: requester)
        }
    }

    /// `resolveUnmade` for a definition not of a class type: made as `Any` and cast. Apart, so
    /// the class path does not fetch `Optional<T>`'s metadata for this cast (the compiler asks
    /// for it on entry).
    @inline(never)
    private func resolveUnmadeValue<T>(_ index: Int, as type: T.Type, from requester: Requester?) throws(ContextError) -> T {
        let value = try Creation(of: index, in: self).makeAny(from: requester)
        if let typed = value as? T { return typed }
        throw mismatch(index, value, as: T.self) { Resolution.path(of: requester, appending: $0) }
    }

    /// The error of a lookup of definition `index` as a `T` that `value`, its object, is not;
    /// `path` gives the lookup's path to the definition's key.
    func mismatch<T>(_ index: Int, _ value: Any, as _: T.Type, path: (String) -> [String]) -> ContextError {
        let key = key(at: index)
        return .mismatch(key, value, as: T.self, path: path(key))
    }

    /// The error of a lookup of `name` on this context after `close()` began.
    func closedError(looking name: String) -> ContextError {
        .contextClosed(context: self.name, key: name)
    }
}

extension ContextError {
    /// The error of a lookup of `name` on `context`: a `contextClosed` that names the key of the
    /// definition `name` is an alias of (a lookup that waited for its making when the close
    /// began, where only the definition is known) names the alias asked for instead.
    func lookedUp(as name: String, in context: ApplicationContext) -> ContextError {
        guard case let .contextClosed(closed, key) = self, key != name,
              let found = context.definition(answering: NameTable.lookupKey(name)),
              found.context.name == closed, found.context.key(at: found.index) == key else { return self }
        return .contextClosed(context: closed, key: name)
    }

    /// The error of a lookup by type `T` on `context`: a `contextClosed` naming the key of a
    /// definition the lookup was making when a context of its chain began closing names the
    /// type asked for instead, as the same lookup after the close does.
    func lookedUp<T>(as _: T.Type, in context: ApplicationContext) -> ContextError {
        guard case let .contextClosed(closed, _) = self,
              context.chain.contains(where: { $0.name == closed && $0.isClosed }) else { return self }
        return .contextClosed(context: closed, key: String(reflecting: T.self))
    }
}
