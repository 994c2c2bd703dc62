extension ApplicationContext {
    /// Injects the `@Inject` properties of an object this context did not make (a view
    /// controller from a storyboard, a test's subject), then calls its `didInject(from:)`.
    ///
    /// Properties that already hold a value are left alone (a property resolved from the current
    /// context on first read counts as not injected: this injection replaces it). Keys are
    /// matched against keys and aliases through the parent chain. A property whose lookup fails
    /// stays pending, so a later `inject(into:)` can still fill it.
    ///
    /// - Throws: ``ContextError/unresolvedInjection(type:property:key:)`` for a required property
    ///   with no matching object, ``ContextError/typeMismatch(key:expected:actual:path:)``,
    ///   ``ContextError/requiresAwait(key:path:)`` for an async definition not made yet (use the
    ///   async form), and any error of making the injected objects.
    public func inject(into object: AnyObject) throws(ContextError) {
        let plan = InjectionPlan.of(type(of: object))
        if plan.isEmpty { return }
        try Resolution.run(from: nil) { resolution, _ throws(ContextError) in
            try withExtendedLifetime(object) { () throws(ContextError) in
                try ObjectInjection(self, plan, nil, in: ObjectFields(of: object), object: object, requester: -1, resolution).apply()
            }
        }
    }

    /// Injects an object this context did not make, as ``inject(into:)``, filling properties
    /// that name async definitions by awaiting them.
    public func inject(into object: AnyObject) async throws(ContextError) {
        let plan = InjectionPlan.of(type(of: object))
        if plan.isEmpty { return }
        try await Resolution.runAsync(from: nil) { resolution async throws(ContextError) in
            try await ObjectInjection(self, plan, nil, in: ObjectFields(of: object), object: object, requester: -1, resolution).applyAsync()
        }
        withExtendedLifetime(object) {}
    }

    /// Injects the object this context just made for definition `index`, a `T` in the slot
    /// `made` (a class reference, or a struct's own storage). The per-definition route makes
    /// this one atomic load and a comparison for types with nothing to inject.
    @inline(__always)
    func injectMade<T>(at made: ValueSlot, as _: T.Type, isClass: Bool, _ index: Int, _ resolution: Resolution) throws(ContextError) {
        if let route = records[index].injection.load(ordering: .acquiring),
           route.with({ route in
               route.plan.typeID == ObjectInjection.dynamicTypeID(of: made, as: T.self, isClass: isClass)
                   && (route.plan.isEmpty || (route.plan.isEmptyUnlessStripped && resolution.boundThread?.with { $0.injectInits } == 0))
           }) {
            return
        }
        try injectMadeSlow(at: made, as: T.self, isClass: isClass, index, resolution)
    }

    /// Injects an object whose type has something to inject, or whose route is not made yet.
    @inline(never)
    private func injectMadeSlow<T>(at made: ValueSlot, as _: T.Type, isClass: Bool, _ index: Int, _ resolution: Resolution) throws(ContextError) {
        let wrappersMade = resolution.boundThread?.with { $0.injectInits } ?? 0
        try ObjectInjection(of: made, as: T.self, isClass: isClass, index, self, resolution, wrappersMade: wrappersMade)?.apply()
    }

    /// Injects `made`, an object of definition `index` made by an async lookup, in place:
    /// properties are filled by async lookups. (The stripped-reflection check needs the count
    /// of wrappers made on one thread, which an async closure does not have; it is done by
    /// synchronous makes only.)
    func injectAsync(_ made: MadeValue, _ index: Int, _ resolution: Resolution) async throws(ContextError) {
        func inject<Object>(_: Object.Type, _ context: ApplicationContext, _ made: MadeValue, _ index: Int, _ resolution: Resolution) async throws(ContextError) {
            let isClass = context.records[index].isClassType
            try await made.withSlot { slot async throws(ContextError) in
                try await ObjectInjection(of: slot, as: Object.self, isClass: isClass, index, context, resolution, wrappersMade: 0)?.applyAsync()
            }
        }
        try await inject(records[index].objectType, self, made, index, resolution)
    }
}

/// Counts `@Inject` wrappers made on this thread (so the context can tell a class with no stored
/// properties from one whose reflection metadata was stripped), and returns the current context
/// if one is bound or set as default: the wrapper then resolves from it on first read.
@usableFromInline
func _noteInjectInitialised() -> ApplicationContext? {
    ThreadState.countInjectWrapper()
}
