/// The making of one definition's object in one context, as its scope says: a prototype is made
/// here, its closure run with the definition on the resolution's path (where a lookup that comes
/// back to it is seen as a cycle); a singleton through its `SingletonSlot`. The synchronous and
/// async drivers side by side.
///
/// Two words, copied freely: the context is held by whoever makes (the lookup), so a creation
/// does not retain it.
struct Creation {
    let unretainedContext: Unretained<ApplicationContext>
    let index: Int

    @inline(__always)
    init(of index: Int, in context: ApplicationContext) {
        unretainedContext = Unretained(context)
        self.index = index
    }

    // MARK: By scope

    /// Makes (or, for a singleton, copies) the object, declared as the caller's type, into
    /// `result`.
    func make(into result: ValueSlot, from requester: Requester?) throws(ContextError) {
        try Resolution.run(from: requester) { resolution, thread throws(ContextError) in
            try make(into: result, in: resolution, on: thread)
        }
    }

    /// `make` in `resolution`, which `thread` (the calling thread) is executing at the depth the
    /// object is asked for.
    @inline(__always)
    func make(into result: ValueSlot, in resolution: Resolution, on thread: ThreadState) throws(ContextError) {
        try unretainedContext.with { context throws(ContextError) in
            try Self.onEnoughStack(resolution, thread) { resolution, thread throws(ContextError) in
                if context.records[index].scope == .prototype {
                    try prototype(in: context, resolution, thread) { resolution throws(ContextError) in
                        try construct(in: context, into: result, resolution)
                    } discarding: { _ in
                        discardConstructed(in: context, result)
                    }
                } else {
                    try SingletonSlot(context, index).made(resolution, thread).copy(into: result)
                }
            }
        }
    }

    /// Makes the object as the type its definition declares.
    func makeAny(from requester: Requester?) throws(ContextError) -> Any {
        try Resolution.run(from: requester) { resolution, thread throws(ContextError) -> Any in
            try makeAny(in: resolution, on: thread)
        }
    }

    /// `makeAny` in `resolution`, which `thread` is executing.
    func makeAny(in resolution: Resolution, on thread: ThreadState) throws(ContextError) -> Any {
        try unretainedContext.with { context throws(ContextError) -> Any in
            try Self.onEnoughStack(resolution, thread) { resolution, thread throws(ContextError) -> Any in
                if context.records[index].scope == .prototype {
                    return try prototype(in: context, resolution, thread) { resolution throws(ContextError) -> Any in
                        try constructAny(in: context, resolution)
                    } discarding: { _ in }
                }
                return try SingletonSlot(context, index).made(resolution, thread).anyValue
            }
        }
    }

    /// Runs `body` here, or on a fresh thread when this one's stack is nearly used up.
    @inline(__always)
    private static func onEnoughStack<R>(_ resolution: Resolution, _ thread: ThreadState, _ body: (Resolution, ThreadState) throws(ContextError) -> R) throws(ContextError) -> R {
        if thread.isStackLow {
            return try FreshStack.run(continuing: resolution, body)
        }
        return try body(resolution, thread)
    }

    // MARK: Prototypes

    /// Runs `body`, which makes a prototype of the definition, with the definition on the
    /// resolution path; a prototype this lookup is already making is a cycle. `discard` undoes
    /// `body` when what it made held an object its group dropped: it is made again.
    @inline(__always)
    private func prototype<R>(in context: ApplicationContext, _ resolution: Resolution, _ thread: ThreadState, _ body: (Resolution) throws(ContextError) -> R, discarding discard: (consuming R) -> Void) throws(ContextError) -> R {
        if context.records[index].isAsync { throw context.requiresAwait(index, resolution) }
        if resolution.isMaking(index, of: context) { throw prototypeCycle(resolution) }
        if resolution.collectsStartup { context.noteStartupBegan(index, resolution) }
        while true {
            let mark = GroupSettlement.mark
            let made = try prototypeInFrame(in: context, resolution, thread, body)
            // Handed to user code: not while another lookup still injects what it may hold, nor
            // holding what that lookup's failure dropped.
            guard GroupSettlement.mustSettle(resolution, since: mark) else { return made }
            switch GroupSettlement.settle(resolution, since: mark) {
            case .keep: return made
            case .makeAgain: discard(made)
            case .refuse:
                discard(made)
                throw context.requiresAwait(index, resolution)
            }
        }
    }

    /// Destroys the prototype `construct` made into `result`, which is uninitialised again.
    @inline(never)
    private func discardConstructed(in context: ApplicationContext, _ result: ValueSlot) {
        func discard<Object>(_: Object.Type, _ result: ValueSlot) { result.deinitialize(as: Object.self) }
        discard(context.records[index].objectType, result)
    }

    /// `body` run with the definition's frame pushed, the prototype's bookkeeping done.
    @inline(__always)
    private func prototypeInFrame<R>(in context: ApplicationContext, _ resolution: Resolution, _ thread: ThreadState, _ body: (Resolution) throws(ContextError) -> R) throws(ContextError) -> R {
        resolution.push(context, index, injectInits: thread.injectInits)
        thread.injectInits = 0
        defer { thread.injectInits = resolution.pop() }
        let made = try body(resolution)
        prototypeMade(in: context, resolution)
        return made
    }

    /// The error of a lookup that comes back to the prototype it is making: the path of this
    /// lookup, or of the lookups it runs inside of when the cycle crosses them.
    @inline(never)
    func prototypeCycle(_ resolution: Resolution) -> ContextError {
        unretainedContext.with { context in
            .circularDependency(path: resolution.cyclePrefix(closedBy: resolution.maker(of: index, in: context)) + [context.key(at: index)])
        }
    }

    /// Bookkeeping after a prototype was made, its frame still pushed.
    @inline(__always)
    private func prototypeMade(in context: ApplicationContext, _ resolution: Resolution) {
        if !context.records[index].edgesRecorded.load(ordering: .relaxed) { context.records[index].edgesRecorded.store(true, ordering: .relaxed) }
        if resolution.collectsStartup { context.noteStartup(index, resolution) }
    }

    // MARK: Async drivers (the same steps, waiting by suspending)

    /// Makes the object as its definition declares it, by an async lookup in `resolution`, held
    /// as made: a prototype with the steps of the synchronous `prototype`, awaiting what must be
    /// awaited of its closure and properties; a singleton through its slot.
    func madeAsync(in resolution: Resolution) async throws(ContextError) -> MadeValue {
        let context = unretainedContext.object
        guard context.records[index].scope == .prototype else {
            return try await SingletonSlot(context, index).madeAsync(resolution)
        }
        if resolution.isMaking(index, of: context) { throw prototypeCycle(resolution) }
        if resolution.collectsStartup { context.noteStartupBegan(index, resolution) }
        while true {
            let mark = GroupSettlement.mark
            let made: MadeValue
            do throws(ContextError) {
                made = try await prototypeInFrame(of: context, resolution)
                resolution.retriedOnACycle = false
            } catch {
                // A wait a synchronous step was refused, made here by suspending: made again.
                try await resolution.awaitRefusedWait(after: error)
                continue
            }
            guard GroupSettlement.mustSettle(resolution, since: mark), await GroupSettlement.settle(resolution, since: mark) else { return made }
        }
    }

    /// The prototype made and injected by an async lookup, its frame pushed meanwhile.
    private func prototypeInFrame(of context: ApplicationContext, _ resolution: Resolution) async throws(ContextError) -> MadeValue {
        resolution.push(context, index, injectInits: 0)
        defer { resolution.pop() }
        let made: MadeValue
        if let synchronous = try constructWithoutAwait(resolution) {
            made = synchronous
        } else {
            made = try await constructAsync(resolution)
        }
        if let started = try ObjectInjection.injectWithoutAwait(made, index, of: context, resolution) {
            try await started.injection.finish(started.step)
        }
        prototypeMade(in: context, resolution)
        return made
    }
}
