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
                try apply(plan, nil, in: ObjectFields(of: object), object: object, requester: -1, resolution)
            }
        }
    }

    /// Injects an object this context did not make, as ``inject(into:)``, filling properties
    /// that name async definitions by awaiting them.
    public func inject(into object: AnyObject) async throws(ContextError) {
        let plan = InjectionPlan.of(type(of: object))
        if plan.isEmpty { return }
        try await Resolution.runAsync(from: nil) { resolution async throws(ContextError) in
            try await applyAsync(plan, nil, in: ObjectFields(of: object), object: object, requester: -1, resolution)
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
        try withExtendedLifetime(target.object) { () throws(ContextError) in
            try apply(plan, route, in: target.fields, object: target.object, requester: index, resolution)
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
                try await context.applyAsync(plan, route, in: target.fields, object: target.object, requester: index, resolution)
                withExtendedLifetime(target.object) {}
            }
        }
        try await inject(records[index].objectType, self, made, index, resolution)
    }

    /// Fills the pending `@Inject` fields of the object whose fields are `fields`, then calls
    /// `didInject`.
    private func apply(_ plan: InjectionPlan, _ route: InjectionRoute?, in fields: ObjectFields, object: AnyObject?, requester index: Int, _ resolution: Resolution) throws(ContextError) {
        recordRoutedEdges(plan, route, in: fields, requester: index)
        for position in plan.fields.indices {
            _ = try fill(position, of: plan, route, in: fields, requester: index, resolution, isAsync: false)
        }
        guard let unaware = fieldsFilled(plan, in: fields, object: object) else { return }
        // Aware only on the main actor: called there, or, off it, an error rather than a skip.
        let called = try? MainActorCall.ifOnMainActor { () -> Bool in self.didInject(unaware) }
        if called != true { throw isolatedAwareness(plan, index, resolution) }
    }

    /// `apply` for an async injection: a property whose object must be made by an async lookup
    /// is looked up with `await` and then stored; `didInject` of a class aware only on the main
    /// actor is called there.
    private func applyAsync(_ plan: InjectionPlan, _ route: InjectionRoute?, in fields: ObjectFields, object: AnyObject?, requester index: Int, _ resolution: Resolution) async throws(ContextError) {
        if index >= 0, !records[index].isAsync, resolution.session.problems != nil {
            reportSynchronousInjections(plan, in: fields, of: index, resolution)
        }
        recordRoutedEdges(plan, route, in: fields, requester: index)
        for position in plan.fields.indices {
            if try fill(position, of: plan, route, in: fields, requester: index, resolution, isAsync: true) { continue }
            let field = plan.fields.pinned(at: position)
            let request = request(plan, field, route?.target(position, in: fields), index, resolution, isAsync: true)
            do throws(ContextError) {
                let key = fields[headerAt: field.value.headerOffset].key ?? field.value.property
                let value = try await _objectAsync(named: key, as: Any.self, from: AsyncRequester(self, index, resolution, label: field))
                _ = try ValueSlot.withTemporary(for: Any.self) { provided throws(ContextError) -> Bool in
                    provided.initialize(as: Any.self, to: value)
                    defer { provided.deinitialize(as: Any.self) }
                    return try fields[headerAt: field.value.headerOffset].fill(fields.wrapper(at: field.value.offset), request, provided)
                }
            } catch {
                try collectOrThrow(error, plan, resolution)
            }
        }
        guard let unaware = fieldsFilled(plan, in: fields, object: object) else { return }
        let onMainActor: @MainActor @Sendable () -> Bool = { self.didInject(unaware) }
        if !(await onMainActor()) { throw isolatedAwareness(plan, index, resolution) }
    }

    /// Fills field `position` if it is pending, as far as it can be without waiting: the one
    /// step of both injections. `false` only for an async injection (`isAsync`) whose field
    /// names an object an async lookup must make; a failure a validation collects counts as
    /// filled.
    private func fill(_ position: Int, of plan: InjectionPlan, _ route: InjectionRoute?, in fields: ObjectFields, requester index: Int, _ resolution: Resolution, isAsync: Bool) throws(ContextError) -> Bool {
        let field = plan.fields.pinned(at: position)
        let header = field.value.headerOffset
        guard fields[headerAt: header].isPending else { return true }
        let request = request(plan, field, route?.target(position, in: fields), index, resolution, isAsync: isAsync)
        do throws(ContextError) {
            return try fields[headerAt: header].fill(fields.wrapper(at: field.value.offset), request, nil)
        } catch {
            try collectOrThrow(error, plan, resolution)
            return true
        }
    }

    /// After the fields are filled: the property names learned, and `didInject` called when the
    /// object's class is aware of injection here. Returns the object when its conformance is
    /// isolated to the main actor, for the caller to call `didInject` there; `nil` when done.
    private func fieldsFilled(_ plan: InjectionPlan, in fields: ObjectFields, object: AnyObject?) -> UncheckedSendable<AnyObject>? {
        PropertyNames.learn(from: plan, in: fields)
        guard plan.isAware, let object else { return nil }
        if !plan.isAwareOnMainActorOnly, let aware = object as? any InjectionAware {
            aware.didInject(from: self)
            return nil
        }
        return UncheckedSendable(object)
    }

    /// Calls `didInject` of `object`, on the main actor (its conformance is isolated there, so
    /// the cast succeeds only there); `false` if the cast fails.
    @MainActor
    private func didInject(_ object: UncheckedSendable<AnyObject>) -> Bool {
        guard let aware = object.value as? any InjectionAware else { return false }
        aware.didInject(from: self)
        return true
    }

    /// The error of an object aware of injection only on the main actor, injected off it.
    private func isolatedAwareness(_ plan: InjectionPlan, _ index: Int, _ resolution: Resolution) -> ContextError {
        .creationFailed(key: index >= 0 ? table.keys[index] : plan.typeName, path: resolution.path, underlying: ConformanceIsolated(type: plan.typeName, protocolName: "InjectionAware"))
    }

    /// While validating: an object of synchronous definition `index` is injected synchronously
    /// when a synchronous lookup makes it, so each of its properties naming an async definition
    /// that timing could leave unmade is a `requiresAwait` waiting to happen, even though this
    /// (async) validation can make it.
    private func reportSynchronousInjections(_ plan: InjectionPlan, in fields: ObjectFields, of index: Int, _ resolution: Resolution) {
        for field in plan.fields {
            let header = field.headerOffset
            guard fields[headerAt: header].isPending, !fields[headerAt: header].isLazy else { continue }
            guard let found = definition(answering: NameTable.lookupKey(fields[headerAt: header].key ?? field.property)),
                  found.context.records[found.index].isAsync else { continue }
            let safe = found.context.records[found.index].scope == .eagerSingleton && !resolution.session.isStarting(found.context)
            guard !safe else { continue }
            let target = found.context.table.keys[found.index]
            resolution.session.problems?.add(.requiresAwait(key: target, path: resolution.path(appending: target)), foundIn: table.keys[index])
        }
    }

    /// Records the dependency edges of the fields of an object of definition `index` that its
    /// route names (pending, not lazy, naming a definition), before they are filled: in one
    /// entry per 64 fields, where `routed` recorded one per field. Only the first object of a
    /// definition records edges, as for a lookup by name.
    /// (A field that ends up looked up by name, because its target's context closed or its type
    /// is not the declared one, records its edge again there: edges are deduplicated when read.)
    @inline(never)
    private func recordRoutedEdges(_ plan: InjectionPlan, _ route: InjectionRoute?, in fields: ObjectFields, requester index: Int) {
        guard index >= 0, let route, !records[index].edgesRecorded.load(ordering: .relaxed) else { return }
        var first = 0
        while first < plan.fields.count {
            var routed: UInt64 = 0
            for bit in 0..<min(UInt64.bitWidth, plan.fields.count - first) {
                let header = plan.fields[first + bit].headerOffset
                guard fields[headerAt: header].isPending, !fields[headerAt: header].isLazy,
                      let target = route.target(first + bit, in: fields), target.index >= 0 else { continue }
                routed |= 1 << UInt64(bit)
            }
            if routed != 0 { journal.record(routed: routed, from: first, of: route, for: index) }
            first += UInt64.bitWidth
        }
    }

    private func request(_ plan: InjectionPlan, _ field: Pinned<InjectionPlan.Field>, _ target: InjectionRoute.Target?, _ index: Int, _ resolution: Resolution, isAsync: Bool) -> InjectRequest {
        InjectRequest(
            context: Unretained(self),
            requester: Requester(context: Unretained(self), index: index, resolution: Unretained(resolution), depth: resolution.depth, label: field),
            plan: Unretained(plan), field: field, isAsync: isAsync, target: target
        )
    }

    /// A validation goes on with the other properties of its scratch context's objects; every
    /// other context throws, so it never publishes an object whose injection failed, whoever
    /// is collecting problems.
    private func collectOrThrow(_ error: ContextError, _ plan: InjectionPlan, _ resolution: Resolution) throws(ContextError) {
        guard isValidation, let problems = resolution.session.problems else { throw error }
        problems.add(error, foundIn: resolution.path.last ?? plan.typeName)
    }
}

/// Counts `@Inject` wrappers made on this thread (so the context can tell a class with no stored
/// properties from one whose reflection metadata was stripped), and returns the current context
/// if one is bound or set as default: the wrapper then resolves from it on first read.
@usableFromInline
func _noteInjectInitialised() -> ApplicationContext? {
    ThreadState.countInjectWrapper()
}
