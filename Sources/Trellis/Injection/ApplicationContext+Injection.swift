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
               route.plan.typeID == Self.dynamicTypeID(of: made, as: T.self, isClass: isClass)
                   && (route.plan.isEmpty || (route.plan.isEmptyUnlessStripped && resolution.boundThread?.with { $0.injectInits } == 0))
           }) {
            return
        }
        try injectMadeSlow(at: made, as: T.self, isClass: isClass, index, resolution)
    }

    /// `type(of:)` on an unspecialised `T` asks the runtime to open existentials; a class
    /// reference only needs its isa read.
    @inline(__always)
    static func dynamicTypeID<T>(of made: ValueSlot, as _: T.Type, isClass: Bool) -> ObjectIdentifier {
        guard isClass else { return ObjectIdentifier(type(of: made[as: T.self])) }
        // Read the reference where it lies instead of copying the value out (a retain and a
        // release through the value witness table of an unspecialised `T`).
        return made.withObject { ObjectIdentifier(type(of: $0)) }
    }

    /// The dynamic type of the `T` in `made` (a declared existential opened).
    static func dynamicType<T>(of made: ValueSlot, as _: T.Type, isClass: Bool) -> Any.Type {
        guard isClass else { return type(of: made[as: T.self] as Any) }
        return made.withObject { type(of: $0) }
    }

    /// The route of definition `index` if it is for objects of `typeID`.
    private func route(_ index: Int, for typeID: ObjectIdentifier) -> InjectionRoute? {
        guard let route = records[index].injection.load(ordering: .acquiring)?.object, route.plan.typeID == typeID else { return nil }
        return route
    }

    /// Where an object's `@Inject` fields lie: the object itself for a class, `made` for a struct
    /// declared as its own type. `nil`: nothing to inject.
    private func injectionTarget<T>(_ plan: InjectionPlan, _ made: ValueSlot, as _: T.Type, isClass: Bool, _ index: Int, _ resolution: Resolution, wrappersMade: Int) throws(ContextError) -> (fields: ObjectFields, object: AnyObject?)? {
        if plan.isEmpty { return nil }
        if plan.reportsNoFields {
            // No fields visible: either the type has none, or reflection metadata is stripped.
            // Wrappers initialised while making it tell the two apart.
            if wrappersMade > 0 { throw .reflectionUnavailable(type: plan.typeName) }
            if !plan.isAware { return nil }
        }
        if plan.isClass {
            // `as AnyObject` is a full dynamic cast: a class-typed definition reinterprets instead.
            let object = isClass ? made.value(as: AnyObject.self) : made[as: T.self] as AnyObject
            return (ObjectFields(of: object), object)
        }
        if ObjectIdentifier(T.self) == plan.typeID { return (ObjectFields(in: made), nil) }
        // A struct inside an existential: its storage is not at `made`, and a generic copy of
        // it cannot be had without knowing its type. Say so rather than skip it.
        throw .creationFailed(key: table.keys[index], path: resolution.path, underlying: StructInExistentialInjectionError(type: plan.typeName))
    }

    /// The plan and route for an object of `typeID` at `made`, making the definition's route
    /// the first time (the first type it makes keeps it).
    private func planAndRoute<T>(for made: ValueSlot, as _: T.Type, isClass: Bool, _ index: Int) -> (InjectionPlan, InjectionRoute?) {
        let typeID = Self.dynamicTypeID(of: made, as: T.self, isClass: isClass)
        if let route = route(index, for: typeID) { return (route.plan, route) }
        let plan = InjectionPlan.of(Self.dynamicType(of: made, as: T.self, isClass: isClass))
        guard records[index].injection.load(ordering: .acquiring) == nil else { return (plan, nil) }
        let fields: ObjectFields
        if plan.isClass {
            let object = isClass ? made.value(as: AnyObject.self) : made[as: T.self] as AnyObject
            fields = ObjectFields(of: object)
            _fixLifetime(object)
        } else if ObjectIdentifier(T.self) == plan.typeID {
            fields = ObjectFields(in: made)
        } else {
            return (plan, nil)
        }
        let made = InjectionRoute.make(plan, for: self, object: fields)
        if records[index].injection.compareExchange(expected: nil, desired: made, ordering: .acquiringAndReleasing).exchanged {
            return (plan, made.object)
        }
        if !made.with({ $0.isShared }) { made.release() }
        return (plan, nil)
    }

    /// Injects an object whose type has something to inject, or whose route is not made yet.
    @inline(never)
    private func injectMadeSlow<T>(at made: ValueSlot, as _: T.Type, isClass: Bool, _ index: Int, _ resolution: Resolution) throws(ContextError) {
        let (plan, route) = planAndRoute(for: made, as: T.self, isClass: isClass, index)
        let wrappersMade = resolution.boundThread?.with { $0.injectInits } ?? 0
        guard let target = try injectionTarget(plan, made, as: T.self, isClass: isClass, index, resolution, wrappersMade: wrappersMade) else { return }
        try withExtendedLifetime((target.object, route)) { () throws(ContextError) in
            try ObjectInjection(self, plan, route, in: target.fields, object: target.object, requester: index, resolution).apply()
        }
    }

    /// Injects `made`, an object of definition `index` made by an async lookup, in place:
    /// properties are filled by async lookups. (The stripped-reflection check needs the count
    /// of wrappers made on one thread, which an async closure does not have; it is done by
    /// synchronous makes only.)
    func injectAsync(_ made: MadeValue, _ index: Int, _ resolution: Resolution) async throws(ContextError) {
        func inject<Object>(_: Object.Type, _ context: ApplicationContext, _ made: MadeValue, _ index: Int, _ resolution: Resolution) async throws(ContextError) {
            let isClass = context.records[index].isClassType
            try await made.withSlot { slot async throws(ContextError) in
                let (plan, route) = context.planAndRoute(for: slot, as: Object.self, isClass: isClass, index)
                guard let target = try context.injectionTarget(plan, slot, as: Object.self, isClass: isClass, index, resolution, wrappersMade: 0) else { return }
                try await ObjectInjection(context, plan, route, in: target.fields, object: target.object, requester: index, resolution).applyAsync()
                withExtendedLifetime((target.object, route)) {}
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
