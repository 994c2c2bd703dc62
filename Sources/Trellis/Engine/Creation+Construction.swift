/// Running the definition's closure: each operation opens the definition's declared type and
/// calls the closure as the `DefinitionClosure<Object>` it was declared as.
extension Creation {
    /// The closure of definition `index` of `context` as it was declared; `Object` must be its
    /// declared type. A copy: one retain of the closure's context, taken from the configuration
    /// in one read.
    @inline(__always)
    static func closure<Object>(_ index: Int, of context: ApplicationContext, as _: Object.Type) -> DefinitionClosure<Object> {
        context.configuration.definitions[index].maker.erased.restored(as: Object.self)
    }

    // MARK: Synchronous

    /// Makes and injects an object into `result`, uninitialised memory for its declared type;
    /// `context` is the creation's, which the caller holds (passed, not read again: this is the
    /// prototype's hot path).
    @inline(__always)
    func construct(in context: ApplicationContext, into result: ValueSlot, _ resolution: Resolution) throws(ContextError) {
        func construct<Object>(_: Object.Type, _ context: ApplicationContext, _ index: Int, _ result: ValueSlot, _ resolution: Resolution) throws(ContextError) {
            try Creation.closure(index, of: context, as: Object.self).make(into: result, isClassType: context.records[index].isClassType, context, index, resolution)
        }
        try construct(context.records[index].objectType, context, index, result, resolution)
    }

    /// Makes an object (not injected yet) as a `MadeValue`: a class instance as it is, any
    /// other value boxed (a singleton's cached value; an async prototype's, to inject).
    func constructSingleton(_ resolution: Resolution) throws(ContextError) -> MadeValue {
        func constructSingleton<Object>(_: Object.Type, _ context: ApplicationContext, _ index: Int, _ resolution: Resolution) throws(ContextError) -> MadeValue {
            try MadeValue.making(Object.self, isClassType: context.records[index].isClassType) { () throws(ContextError) in
                try Creation.closure(index, of: context, as: Object.self).run(context, index, resolution)
            }
        }
        return try unretainedContext.with { context throws(ContextError) -> MadeValue in
            try constructSingleton(context.records[index].objectType, context, index, resolution)
        }
    }

    /// Injects `made`, the singleton, in place.
    func injectSingleton(_ made: MadeValue, _ resolution: Resolution) throws(ContextError) {
        func injectSingleton<Object>(_: Object.Type, _ context: ApplicationContext, _ made: MadeValue, _ index: Int, _ resolution: Resolution) throws(ContextError) {
            try made.withSlot { slot throws(ContextError) in try ObjectInjection.injectMade(at: slot, as: Object.self, isClass: context.records[index].isClassType, index, of: context, resolution) }
        }
        try unretainedContext.with { context throws(ContextError) in
            try injectSingleton(context.records[index].objectType, context, made, index, resolution)
        }
    }

    /// Makes and injects an object, returned as `Any` (lookups whose type is not the declared
    /// one); `context` is the creation's, which the caller holds.
    func constructAny(in context: ApplicationContext, _ resolution: Resolution) throws(ContextError) -> Any {
        if context.records[index].isClassType {
            // A class: made into one word as `construct` makes it, then boxed as `Any` in place.
            // The generic path makes it in a slot on the heap and copies it out (about 250
            // instructions more per object).
            return try ValueSlot.making(AnyObject.self) { result throws(ContextError) in try construct(in: context, into: result, resolution) }
        }
        func constructAny<Object>(_: Object.Type, _ context: ApplicationContext, _ index: Int, _ resolution: Resolution) throws(ContextError) -> Any {
            try Creation.closure(index, of: context, as: Object.self).makeAny(isClassType: context.records[index].isClassType, context, index, resolution)
        }
        return try constructAny(context.records[index].objectType, context, index, resolution)
    }

    /// Runs the closure only, to learn the dynamic type of what it makes (lookup by type).
    func runProbe(_ resolution: Resolution) throws(ContextError) -> Any {
        func runProbe<Object>(_: Object.Type, _ context: ApplicationContext, _ index: Int, _ resolution: Resolution) throws(ContextError) -> Any {
            try Creation.closure(index, of: context, as: Object.self).run(context, index, resolution)
        }
        return try unretainedContext.with { context throws(ContextError) -> Any in
            try runProbe(context.records[index].objectType, context, index, resolution)
        }
    }

    // MARK: Asynchronous

    /// Makes an object (not injected yet) for an async lookup, held as made: a synchronous
    /// closure is run here, bound to the calling thread as any synchronous closure an async
    /// lookup runs; `nil` when the closure must be awaited or run on the main actor
    /// (`constructAsync`). Kept synchronous so that the common case costs an async lookup no
    /// task frames (about 120 instructions each, and the generic metadata an async opener asks
    /// for).
    func constructWithoutAwait(_ resolution: Resolution) throws(ContextError) -> MadeValue? {
        let runsHere = unretainedContext.with { !$0.records[index].isAsync && !$0.records[index].runsOnMainActor }
        guard runsHere else { return nil }
        return try ThreadState.current.runningSynchronously(resolution) { () throws(ContextError) -> MadeValue in
            try constructSingleton(resolution)
        }
    }

    /// Makes an object (not injected yet) for an async lookup, held as made: awaits an async
    /// closure, hops to the main actor for a main-actor one. One opener for everything an async
    /// lookup makes: a singleton, a prototype (then injected by `injectWithoutAwait` and `finish`), a
    /// type probe (only run). Holding a prototype's value costs a box where the synchronous
    /// path writes into the caller's memory; an async make costs a task's frames anyway.
    ///
    /// Callers try `constructWithoutAwait` first.
    func constructAsync(_ resolution: Resolution) async throws(ContextError) -> MadeValue {
        func construct<Object>(_: Object.Type, _ context: ApplicationContext, _ index: Int, _ resolution: Resolution) async throws(ContextError) -> MadeValue {
            MadeValue.holding(try await Creation.closure(index, of: context, as: Object.self).runAsync(context, index, resolution), isClassType: context.records[index].isClassType)
        }
        let context = unretainedContext.object
        return try await construct(context.records[index].objectType, context, index, resolution)
    }

    // MARK: Types

    /// Whether the declared type alone proves that every object of the definition is a `T`.
    func declaresKind<T>(of type: T.Type) -> Bool {
        func declares<Object>(_: Object.Type, _: T.Type) -> Bool { Object.self is T.Type }
        return unretainedContext.with { declares($0.records[index].objectType, T.self) }
    }

    /// Whether the declared type alone proves that no object of the definition is a `T`, so a
    /// lookup by type need not make it to find out.
    func declaresNoKind<T>(of type: T.Type) -> Bool {
        func declaresNo<Object>(_: Object.Type, _: T.Type) -> Bool {
            // Whether a value conforms to a protocol, or is `AnyObject`, or what an existential
            // holds, is left to the made object (a subclass may conform; a cast boxes a value as
            // `AnyObject`): only classes, structs and enums are told apart here.
            guard !(Object.self is T.Type) else { return false }
            if T.self is AnyClass {
                // Two classes neither of which derives from the other share no subclass (single
                // inheritance), so no object of `Object` or a subclass is a `T`.
                if Object.self is AnyClass { return !(T.self is Object.Type) }
                // A struct or an enum is never a class instance, except where a cast looks past
                // it: an optional's wrapped value, an `AnyHashable`'s base, a bridged value's
                // class.
                return Runtime.isStructOrEnum(Object.self) && !CastTransparency.looksPast(Object.self)
            }
            // Between values, a cast also looks past an array's, a set's or a dictionary's
            // elements (`[Dog]` is an `[any Animal]`), and through a bridged value's class
            // (`NSNumber` as `Double`).
            func isPlainValue(_ type: Any.Type) -> Bool {
                Runtime.isStructOrEnum(type) && !CastTransparency.looksPast(type) && !CastTransparency.castsElements(type)
            }
            // Nor is a class instance, or a value of another struct or enum, a struct or an enum
            // `T`.
            return isPlainValue(T.self) && (Object.self is AnyClass || isPlainValue(Object.self))
        }
        return unretainedContext.with { declaresNo($0.records[index].objectType, T.self) }
    }
}
