extension ApplicationContext {
    /// Makes (or, for a singleton, copies) the object of definition `index`, declared as the
    /// caller's type, into `result`.
    func make(_ index: Int, into result: ValueSlot, from requester: Requester?) throws(ContextError) -> Outcome {
        try Resolution.run(from: requester) { resolution, thread throws(ContextError) -> Outcome in
            try make(index, into: result, in: resolution, on: thread)
        }
    }

    /// `make` in `resolution`, which `thread` (the calling thread) is executing at the depth the
    /// object is asked for.
    @inline(__always)
    func make(_ index: Int, into result: ValueSlot, in resolution: Resolution, on thread: ThreadState) throws(ContextError) -> Outcome {
        try onEnoughStack(resolution, thread) { resolution, thread throws(ContextError) -> Outcome in
            if records[index].scope == .prototype {
                try makePrototype(index, resolution, thread) { resolution throws(ContextError) in
                    try construct(index, into: result, resolution)
                }
            } else {
                try SingletonSlot(self, index).made(resolution, thread).copy(into: result)
            }
            return .madeInto
        }
    }

    /// Makes the object of definition `index` as the type its definition declares.
    func makeAny(_ index: Int, from requester: Requester?) throws(ContextError) -> Any {
        try Resolution.run(from: requester) { resolution, thread throws(ContextError) -> Any in
            try makeAny(index, resolution, thread)
        }
    }

    func makeAny(_ index: Int, _ resolution: Resolution, _ thread: ThreadState) throws(ContextError) -> Any {
        try onEnoughStack(resolution, thread) { resolution, thread throws(ContextError) -> Any in
            if records[index].scope == .prototype {
                return try makePrototype(index, resolution, thread) { resolution throws(ContextError) -> Any in
                    try constructAny(index, resolution)
                }
            }
            return try SingletonSlot(self, index).made(resolution, thread).anyValue
        }
    }

    /// Runs `body` here, or on a fresh thread when this one's stack is nearly used up.
    @inline(__always)
    func onEnoughStack<R>(_ resolution: Resolution, _ thread: ThreadState, _ body: (Resolution, ThreadState) throws(ContextError) -> R) throws(ContextError) -> R {
        if thread.isStackLow {
            return try FreshStack.run(continuing: resolution, body)
        }
        return try body(resolution, thread)
    }

    // MARK: Prototypes

    /// Runs `body`, which makes a prototype of definition `index`, with the definition on the
    /// resolution path; a prototype this lookup is already making is a cycle.
    @inline(__always)
    func makePrototype<R>(_ index: Int, _ resolution: Resolution, _ thread: ThreadState, _ body: (Resolution) throws(ContextError) -> R) throws(ContextError) -> R {
        if records[index].isAsync { throw requiresAwait(index, resolution) }
        if resolution.isMaking(index, of: self) { throw prototypeCycle(index, resolution) }
        if resolution.collectsStartup { noteStartupBegan(index, resolution) }
        resolution.push(self, index, injectInits: thread.injectInits)
        thread.injectInits = 0
        defer { thread.injectInits = resolution.pop() }
        let made = try body(resolution)
        prototypeMade(index, resolution)
        return made
    }

    @inline(never)
    func prototypeCycle(_ index: Int, _ resolution: Resolution) -> ContextError {
        let prefix = resolution.isMaking(index, of: self, ownLookupOnly: true) ? resolution.path : resolution.combinedPath
        return .circularDependency(path: prefix + [table.keys[index]])
    }

    /// Bookkeeping after a prototype of definition `index` was made, its frame still pushed.
    @inline(__always)
    func prototypeMade(_ index: Int, _ resolution: Resolution) {
        if !records[index].edgesRecorded.load(ordering: .relaxed) { records[index].edgesRecorded.store(true, ordering: .relaxed) }
        if resolution.collectsStartup { noteStartup(index, resolution) }
    }

    /// Tells the start-up collector that definition `index` was made while an eager singleton was.
    @inline(never)
    func noteStartup(_ index: Int, _ resolution: Resolution) {
        resolution.session.startup?.made(index, of: self, isEager: resolution.isStartingEager(framesAbove: 1))
    }

    /// Tells the start-up collector that definition `index` is about to be made.
    @inline(never)
    func noteStartupBegan(_ index: Int, _ resolution: Resolution) {
        resolution.session.startup?.began(index, of: self, isEager: resolution.isStartingEager(framesAbove: 0))
    }

    @inline(never)
    func requiresAwait(_ index: Int, _ resolution: Resolution?) -> ContextError {
        let key = table.keys[index]
        return .requiresAwait(key: key, path: (resolution?.path ?? []) + [key])
    }

    // MARK: Async drivers (the same steps, waiting by suspending)

    /// Makes the object of definition `index` as its definition declares it, by an async lookup
    /// in `resolution`.
    func makeAnyAsync(_ index: Int, _ resolution: Resolution) async throws(ContextError) -> Any {
        if records[index].scope == .prototype {
            return try await makePrototypeAsync(index, resolution) { resolution async throws(ContextError) -> Any in
                let made = try await constructAsync(index, resolution)
                try await injectAsync(made, index, resolution)
                return made.anyValue
            }
        }
        return try await SingletonSlot(self, index).madeAsync(resolution).anyValue
    }

    /// `makePrototype` for an async lookup.
    func makePrototypeAsync<R>(_ index: Int, _ resolution: Resolution, _ body: (Resolution) async throws(ContextError) -> R) async throws(ContextError) -> R {
        if resolution.isMaking(index, of: self) { throw prototypeCycle(index, resolution) }
        if resolution.collectsStartup { noteStartupBegan(index, resolution) }
        resolution.push(self, index, injectInits: 0)
        defer { resolution.pop() }
        let made = try await body(resolution)
        prototypeMade(index, resolution)
        return made
    }
}
