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
        // Made and injected by a closure of this thread, its wrappers are not ones nothing
        // injects: the object the closure returns is not taken for one whose reflection
        // metadata was stripped.
        ThreadState.uncountInjectWrappers(plan.fields.count)
    }

    /// Injects an object this context did not make, as ``inject(into:)``, filling properties
    /// that name async definitions by awaiting them.
    public func inject(into object: AnyObject) async throws(ContextError) {
        let plan = InjectionPlan.of(type(of: object))
        if plan.isEmpty { return }
        try await Resolution.runAsync(from: nil) { resolution async throws(ContextError) in
            let injection = ObjectInjection(self, plan, nil, in: ObjectFields(of: object), object: object, requester: -1, resolution)
            try await injection.finish(try injection.applyWithoutAwait())
        }
        withExtendedLifetime(object) {}
    }
}

/// Counts `@Inject` wrappers made on this thread (so the context can tell a class with no stored
/// properties from one whose reflection metadata was stripped), and returns the current context
/// if one is bound or set as default (its `ContextReference`): the wrapper then resolves from it
/// on first read.
@usableFromInline
func _noteInjectInitialised() -> ContextReference? {
    ThreadState.countInjectWrapper()
}
