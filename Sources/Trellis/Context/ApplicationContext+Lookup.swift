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
    ///   object is not a `T`, and any error of making it (``ContextError/creationFailed(key:path:underlying:)``,
    ///   ``ContextError/circularDependency(path:)``, …).
    @inlinable
    public func object<T>(_ keyOrAlias: String, as type: T.Type = T.self) throws(ContextError) -> T {
        // Inlined so the caller's specialisation copies a made singleton straight out of the
        // cache, and has a prototype made straight into its own stack memory.
        try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer throws(ContextError) -> T in
            let result = buffer.baseAddress!
            switch try _object(named: keyOrAlias, type: ObjectIdentifier(T.self), into: UnsafeMutableRawPointer(result), requester: nil, label: nil) {
            case let .made(value): return value.assumingMemoryBound(to: T.self).pointee
            case .madeInto: return result.move()
            case .needsConversion, .notFound: return try _object(named: keyOrAlias, as: T.self, requester: nil)
            }
        }
    }

    /// A lookup that does not say its type, which cannot compile: the message says how to give it.
    @available(*, unavailable, message: "say which type you want: `let clock: Clock = try context.object(\"clock\")` or `try context.object(\"clock\", as: Clock.self)`")
    public func object(_ keyOrAlias: String) -> UnannotatedLookup {
        fatalError("unavailable")
    }

    /// Whether this context or one of its parents answers to `keyOrAlias`.
    public func contains(_ keyOrAlias: String) -> Bool {
        locate(keyOrAlias) != nil
    }

    /// What `_object(named:type:into:requester:)` did.
    @usableFromInline
    enum Outcome {
        /// The made singleton, of the requested type, is at this address.
        case made(UnsafeRawPointer)
        /// A new object of the requested type was moved into the caller's memory.
        case madeInto
        /// An object declared with another type: the generic path converts or throws.
        case needsConversion
        /// No context in the chain answers to the name.
        case notFound
    }

    /// The lookup, not generic: finds `name` once; returns a made singleton declared as `type`
    /// without a lock or an allocation (the hot path); else makes the object and, if it is
    /// declared as `type`, moves it into `result`.
    @usableFromInline
    func _object(named name: String, type: ObjectIdentifier, into result: UnsafeMutableRawPointer, requester: Int?, label: String?) throws(ContextError) -> Outcome {
        let hash = NameTable.hash(name)
        if let index = table.definition(named: name, hash: hash) {
            if let requester, !edgesRecorded[requester].load(ordering: .relaxed) {
                records.record(Edge(from: requester, depth: 0, to: index, label: label))
            }
            guard typeIDs[index] == type else { return .needsConversion }
            if let made = published[index].load(ordering: .acquiring) { return .made(made) }
            return try make(index, into: result)
        }
        guard let found = parent?.locate(name, hash: hash) else { return .notFound }
        if let requester, !edgesRecorded[requester].load(ordering: .relaxed) {
            records.record(Edge(from: requester, depth: found.depth + 1, to: found.index, label: label))
        }
        let context = found.context, index = found.index
        guard context.typeIDs[index] == type else { return .needsConversion }
        if let made = context.published[index].load(ordering: .acquiring) { return .made(made) }
        return try context.make(index, into: result)
    }

    /// Makes (or, for a singleton, copies) the object of definition `index`, declared as the
    /// caller's type, into `result`.
    private func make(_ index: Int, into result: UnsafeMutableRawPointer) throws(ContextError) -> Outcome {
        let stack = ThreadLocal.creationStack
        if stack.depth >= stack.state.pointee.nextFreshStack {
            return try onFreshStack(stack) { () throws(ContextError) -> Outcome in try make(index, into: result) }
        }
        if scopes[index] == .prototype {
            try withPrototypeFrame(index, stack) { () throws(ContextError) in
                try maker(index).make(into: result, self, index, stack)
            }
        } else {
            try singletonBox(index, stack).copy(into: result)
        }
        return .madeInto
    }

    /// Makes the object of definition `index` as the type its definition declares.
    private func makeAny(_ index: Int) throws(ContextError) -> Any {
        let stack = ThreadLocal.creationStack
        if stack.depth >= stack.state.pointee.nextFreshStack {
            return try onFreshStack(stack) { () throws(ContextError) -> Any in try makeAny(index) }
        }
        if scopes[index] == .prototype {
            return try withPrototypeFrame(index, stack) { () throws(ContextError) -> Any in
                try maker(index).makeAny(self, index, stack)
            }
        }
        return try singletonBox(index, stack).anyValue
    }

    /// The slow path of a lookup: find, make if needed, type-check.
    @usableFromInline
    func _object<T>(named name: String, as type: T.Type, requester: Int?) throws(ContextError) -> T {
        guard let found = locate(name) else { throw noSuchObject(name) }
        if let requester, !edgesRecorded[requester].load(ordering: .relaxed) {
            records.record(Edge(from: requester, depth: found.depth, to: found.index, label: nil))
        }
        return try found.context.resolve(found.index, as: T.self)
    }

    /// The context in the chain that answers to `name`, the definition there, and how many
    /// levels up the chain it is.
    func locate(_ name: String) -> (context: ApplicationContext, index: Int, depth: Int)? {
        locate(name, hash: NameTable.hash(name))
    }

    func locate(_ name: String, hash: UInt32) -> (context: ApplicationContext, index: Int, depth: Int)? {
        var context = self
        var depth = 0
        while true {
            if let index = context.table.definition(named: name, hash: hash) { return (context, index, depth) }
            guard let parent = context.parent else { return nil }
            context = parent
            depth += 1
        }
    }

    /// The object of definition `index`, made if needed, as a `T`.
    func resolve<T>(_ index: Int, as type: T.Type) throws(ContextError) -> T {
        guard typeIDs[index] == ObjectIdentifier(T.self) else {
            return try cast(makeAny(index), key: index, ThreadLocal.creationStack)
        }
        return try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer throws(ContextError) -> T in
            if let made = published[index].load(ordering: .acquiring) { return made.assumingMemoryBound(to: T.self).pointee }
            _ = try make(index, into: UnsafeMutableRawPointer(buffer.baseAddress!))
            return buffer.baseAddress!.move()
        }
    }

    /// Runs `body`, one level deeper than the current thread should go, on a fresh thread.
    @inline(never)
    private func onFreshStack<R>(_ stack: CreationStack, _ body: () throws(ContextError) -> R) throws(ContextError) -> R {
        let saved = stack.state.pointee.nextFreshStack
        stack.state.pointee.nextFreshStack = stack.depth + FreshStack.framesPerThread
        defer { stack.state.pointee.nextFreshStack = saved }
        return try FreshStack.run(continuing: stack, body)
    }

    /// `value` as a `T`, or the `typeMismatch` error for definition `index`.
    func cast<T>(_ value: Any, key index: Int, _ stack: CreationStack) throws(ContextError) -> T {
        if let typed = value as? T { return typed }
        let key = table.keys[index]
        throw .typeMismatch(key: key, expected: String(reflecting: T.self), actual: String(reflecting: Swift.type(of: value)), path: stack.path + [key])
    }

    @inline(never)
    func noSuchObject(_ name: String) -> ContextError {
        .noSuchObject(key: name, searched: chain.map(\.name), path: ThreadLocal.creationStack.path + [name])
    }
}
