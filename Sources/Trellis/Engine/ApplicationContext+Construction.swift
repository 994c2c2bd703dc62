/// Running a definition's closure: each operation opens the definition's declared type and
/// calls the closure as the `DefinitionClosure<Object>` it was declared as.
extension ApplicationContext {
    /// The closure of definition `index` as it was declared; `Object` must be its declared type.
    /// A copy: one retain of the closure's context, taken from the configuration in one read.
    @inline(__always)
    func closure<Object>(_ index: Int, as _: Object.Type) -> DefinitionClosure<Object> {
        configuration.definitions[index].maker.erased.restored(as: Object.self)
    }

    // MARK: Synchronous

    /// Makes and injects an object of definition `index` into `result`, uninitialised memory
    /// for its declared type.
    @inline(__always)
    func construct(_ index: Int, into result: ValueSlot, _ resolution: Resolution) throws(ContextError) {
        func construct<Object>(_: Object.Type, _ context: ApplicationContext, _ index: Int, _ result: ValueSlot, _ resolution: Resolution) throws(ContextError) {
            try context.closure(index, as: Object.self).make(into: result, isClassType: context.records[index].isClassType, context, index, resolution)
        }
        try construct(records[index].objectType, self, index, result, resolution)
    }

    /// Makes an object of definition `index` (not injected yet) and boxes it for caching as a
    /// singleton.
    func constructSingleton(_ index: Int, _ resolution: Resolution) throws(ContextError) -> MadeValue {
        func constructSingleton<Object>(_: Object.Type, _ context: ApplicationContext, _ index: Int, _ resolution: Resolution) throws(ContextError) -> MadeValue {
            try MadeValue.making(Object.self, isClassType: context.records[index].isClassType) { () throws(ContextError) in
                try context.closure(index, as: Object.self).run(context, index, resolution)
            }
        }
        return try constructSingleton(records[index].objectType, self, index, resolution)
    }

    /// Injects `made`, the singleton of definition `index`, in place.
    func injectSingleton(_ made: MadeValue, _ index: Int, _ resolution: Resolution) throws(ContextError) {
        func injectSingleton<Object>(_: Object.Type, _ context: ApplicationContext, _ made: MadeValue, _ index: Int, _ resolution: Resolution) throws(ContextError) {
            try made.withSlot { slot throws(ContextError) in try context.injectMade(at: slot, as: Object.self, isClass: context.records[index].isClassType, index, resolution) }
        }
        try injectSingleton(records[index].objectType, self, made, index, resolution)
    }

    /// Makes and injects an object of definition `index`, returned as `Any` (lookups whose type
    /// is not the declared one).
    func constructAny(_ index: Int, _ resolution: Resolution) throws(ContextError) -> Any {
        func constructAny<Object>(_: Object.Type, _ context: ApplicationContext, _ index: Int, _ resolution: Resolution) throws(ContextError) -> Any {
            try context.closure(index, as: Object.self).makeAny(isClassType: context.records[index].isClassType, context, index, resolution)
        }
        return try constructAny(records[index].objectType, self, index, resolution)
    }

    /// Runs the closure of definition `index` only, to learn the dynamic type of what it makes
    /// (lookup by type).
    func runProbe(_ index: Int, _ resolution: Resolution) throws(ContextError) -> Any {
        func runProbe<Object>(_: Object.Type, _ context: ApplicationContext, _ index: Int, _ resolution: Resolution) throws(ContextError) -> Any {
            try context.closure(index, as: Object.self).run(context, index, resolution)
        }
        return try runProbe(records[index].objectType, self, index, resolution)
    }

    // MARK: Asynchronous

    /// Makes an object of definition `index` (not injected yet) for an async lookup, held as
    /// made: awaits an async closure, hops to the main actor for a main-actor one. One opener
    /// for everything an async lookup makes: a singleton, a prototype (then injected by
    /// `injectAsync` and copied out), a type probe (only run). Holding a prototype's value costs
    /// a box where the synchronous path writes into the caller's memory; an async make costs a
    /// task's frames anyway.
    func constructAsync(_ index: Int, _ resolution: Resolution) async throws(ContextError) -> MadeValue {
        func construct<Object>(_: Object.Type, _ context: ApplicationContext, _ index: Int, _ resolution: Resolution) async throws(ContextError) -> MadeValue {
            MadeValue.holding(try await context.closure(index, as: Object.self).runAsync(context, index, resolution), isClassType: context.records[index].isClassType)
        }
        return try await construct(records[index].objectType, self, index, resolution)
    }

    // MARK: Types

    /// Whether the declared type alone proves that every object of definition `index` is a `T`.
    func declaresKind<T>(_ index: Int, of type: T.Type) -> Bool {
        func declares<Object>(_: Object.Type, _: T.Type) -> Bool { Object.self is T.Type }
        return declares(records[index].objectType, T.self)
    }

    /// Whether the declared type alone proves that no object of definition `index` is a `T`, so
    /// a lookup by type need not make it to find out.
    func declaresNoKind<T>(_ index: Int, of type: T.Type) -> Bool {
        func declaresNo<Object>(_: Object.Type, _: T.Type) -> Bool {
            // Two classes neither of which derives from the other share no subclass (single
            // inheritance), so no object of `Object` or a subclass is a `T`. Protocols,
            // `AnyObject` and value types are left to the made object: a subclass may conform, a
            // value may be bridged or unwrapped by the cast.
            Object.self is AnyClass && T.self is AnyClass && !(Object.self is T.Type) && !(T.self is Object.Type)
        }
        return declaresNo(records[index].objectType, T.self)
    }
}
