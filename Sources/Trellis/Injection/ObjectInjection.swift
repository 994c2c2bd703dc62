/// The injection of one object: its pending `@Inject` fields filled from a context in one
/// resolution, then its `didInject(from:)` called.
///
/// Made for each injected object and dropped when it is done, so it holds every reference
/// unretained (making, copying and dropping one costs no reference counting): the lookup that
/// injects keeps the context and its resolution alive, the context's record keeps its route,
/// the slot the object was made into (or the caller of `inject(into:)`) keeps the object, and
/// plans are immortal.
struct ObjectInjection: BitwiseCopyable {
    let context: Unretained<ApplicationContext>
    let plan: Unretained<InjectionPlan>
    /// The injecting definition's route, when it is for the object's type.
    let route: Unretained<InjectionRoute>?
    /// Where the object's fields lie: the object itself, or a struct's own storage.
    let fields: ObjectFields
    /// The class instance injected; `nil` for a struct.
    let object: Unretained<AnyObject>?
    /// The definition whose object this is; -1 for `inject(into:)`.
    let requester: Int
    let resolution: Unretained<Resolution>
    /// The resolution's depth at the object's frame, where each field's lookup starts.
    let depth: Int

    init(_ context: ApplicationContext, _ plan: InjectionPlan, _ route: InjectionRoute?, in fields: ObjectFields, object: AnyObject?, requester: Int, _ resolution: Resolution) {
        self.context = Unretained(context)
        self.plan = Unretained(plan)
        // During the concurrent phase of a start, every field is looked up: the lookup applies
        // the phase's rules (a main-actor singleton, made or not, is refused off the main actor),
        // which a routed field, taking a made singleton as it is, would skip.
        self.route = resolution.restrictsAsync ? nil : route.map(Unretained.init)
        self.fields = fields
        self.object = object.map(Unretained.init)
        self.requester = requester
        self.resolution = Unretained(resolution)
        depth = resolution.depth
    }

    /// The injection of `made`, the object of definition `index` of `context` (a `T`, its
    /// declared type), with the definition's route when it is for the object's type, made the
    /// first time (the first type the definition makes keeps it); `nil` when there is nothing to
    /// inject.
    ///
    /// The route and the object are held unretained: the context's record keeps its route, and
    /// `made` the object, for as long as the caller keeps the context and `made`.
    ///
    /// - Throws: `reflectionUnavailable` when `@Inject` wrappers were made (`wrappersMade`) for
    ///   an object whose type shows no fields; `creationFailed` for a struct inside an existential.
    @inline(__always)
    init?<T>(of made: ValueSlot, as _: T.Type, isClass: Bool, _ index: Int, _ context: ApplicationContext, _ resolution: Resolution, wrappersMade: Int) throws(ContextError) {
        let (plan, route) = Self.planAndRoute(for: made, as: T.self, isClass: isClass, index, of: context)
        // A definition declared as an optional (`{ Optional(Widget()) }`): the object it wraps is
        // injected, when it wraps a class instance (the slot keeps it alive).
        if plan.isOptional {
            guard let value = CastTransparency.innermost(made[as: T.self]) else { return nil }
            let wrapped = InjectionPlan.of(type(of: value))
            if wrapped.isEmpty { return nil }
            // A struct inside the optional cannot be filled in place, as inside an existential.
            guard wrapped.isClass else {
                throw Self.structNotInPlace(wrapped, index, of: context, resolution, isOptional: true)
            }
            let object = value as AnyObject
            self.init(context, wrapped, nil, in: ObjectFields(of: object), object: object, requester: index, resolution)
            return
        }
        guard let target = try Self.target(plan, made, as: T.self, isClass: isClass, index, context, resolution, wrappersMade: wrappersMade) else { return nil }
        self.init(context, plan, route, in: target.fields, object: target.object, requester: index, resolution)
    }

    /// Fills the pending fields, then calls `didInject`.
    func apply() throws(ContextError) {
        recordRoutedEdges()
        let count = plan.with { $0.fields.count }
        for position in 0..<count {
            _ = try fill(position, isAsync: false)
        }
        guard let unaware = try fieldsFilled() else { return }
        // Aware only on the main actor: called there, or, off it, an error rather than a skip.
        let context = context.object
        let called = try? MainActorCall.ifOnMainActor { () -> Bool in Self.didInject(unaware, from: context) }
        if called != true { throw isolatedAwareness() }
    }

    /// Where an async injection stands once it filled what it could without awaiting.
    enum AsyncStep {
        /// Every field filled and `didInject` called: nothing to await.
        case done
        /// Field `position` names an object an async lookup must make.
        case awaiting(Int)
        /// Field `position` names a singleton made here whose own injection must await
        /// (indirect: the pending injection holds a step of its own).
        indirect case awaitingSingleton(Int, PendingSingleton)
        /// Every field filled; `didInject` must be called on the main actor.
        case didInjectOnMainActor(UncheckedSendable<AnyObject>)
    }

    /// The synchronous start of an async injection (`apply` for an async lookup, finished by
    /// `finish`): every field that needs no await is filled here, up to the first that does.
    /// Most objects are done here, so the async lookup that made them pays no task frames for
    /// their injection.
    func applyWithoutAwait() throws(ContextError) -> AsyncStep {
        let context = context.object, resolution = resolution.object
        if requester >= 0, resolution.session.problems != nil {
            reportSynchronousInjections(ownerIsSynchronous: !context.records[requester].isAsync)
        }
        recordRoutedEdges()
        return try fillWithoutAwait(from: 0)
    }

    /// The context and definition the route names for field `position`, when every context up
    /// to it is open (else the lookup by name says what is wrong).
    private func routedTarget(at position: Int) -> (context: Unretained<ApplicationContext>, index: Int)? {
        guard let target = route?.with({ $0.target(position, in: fields) }), target.index >= 0,
              let found = context.with({ $0.openAncestor(target.levels) }) else { return nil }
        return (found, target.index)
    }

    /// Runs `body` with the resolution bound to the calling thread, as `fillWithoutAwait(from:)`
    /// fills: for a filling `finish` does between its awaits.
    private func bound<R>(_ body: () throws(ContextError) -> R) throws(ContextError) -> R {
        try resolution.with { resolution throws(ContextError) -> R in
            try ThreadState.current.runningSynchronously(resolution, body)
        }
    }

    /// Fills the pending fields from `start` on, up to the first an async lookup must make,
    /// with the resolution bound to the calling thread: a prototype a field makes is then made
    /// in it, as in a synchronous injection, instead of in a continuation resolution.
    ///
    /// A field naming a singleton nobody made yet gets it made here when its closure is
    /// synchronous and nobody else owns it (`SingletonSlot.madeWithoutWaiting`), as a blocking
    /// injection makes it; its own properties are filled the same way, and if one of them must
    /// be awaited, the singleton's injection is finished by `finish`.
    private func fillWithoutAwait(from start: Int) throws(ContextError) -> AsyncStep {
        let count = plan.with { $0.fields.count }
        let stop = try bound { () throws(ContextError) -> AsyncStep? in
            for position in start..<count where try !fill(position, isAsync: true) {
                if let stop = try fillMakingWithoutWaiting(position) { return stop }
            }
            return nil
        }
        if let stop { return stop }
        // Bound too: a lookup `didInject` makes is nested in this one, so that waiting for what
        // this injection holds up (a partner of a property cycle, waiting for its group) is seen
        // as the cycle it is, as in a blocking injection, instead of blocking for ever.
        guard let unaware = try bound({ () throws(ContextError) in try fieldsFilled() }) else { return .done }
        return .didInjectOnMainActor(unaware)
    }

    /// Fills field `position`, which names a singleton the route found, with it made without
    /// waiting if it can be; `nil` when filled (or its failure collected by a validation), else
    /// where the injection must await. Out of line: the filling loop's common case (a made
    /// singleton, a prototype) stays small.
    @inline(never)
    private func fillMakingWithoutWaiting(_ position: Int) throws(ContextError) -> AsyncStep? {
        let field = plan.with { $0.fields.pinned(at: position) }
        guard !fields[headerAt: field.value.headerOffset].isLazy,
              let routed = routedTarget(at: position),
              routed.context.with({ $0.records[routed.index].scope.isSingleton }) else { return .awaiting(position) }
        do throws(ContextError) {
            let made = try routed.context.with { context throws(ContextError) -> SingletonSlot.WithoutWaiting? in
                try resolution.with { resolution throws(ContextError) -> SingletonSlot.WithoutWaiting? in
                    try SingletonSlot(context, routed.index).madeWithoutWaiting(resolution)
                }
            }
            switch made {
            case .none, .dropped?: return .awaiting(position)
            case let .made(made)?: try fill(position, with: made)
            case let .injecting(pending)?: return .awaitingSingleton(position, pending)
            }
        } catch {
            try collectOrThrow(error)
        }
        return nil
    }

    /// Fills field `position` with `made`, the object just made for it: through the route when
    /// it is published (as the type it is), else from its `Any` (a prototype, or a singleton
    /// published later with its group). Called bound to the thread (`bound`).
    private func fill(_ position: Int, with made: MadeValue) throws(ContextError) {
        if try fill(position, isAsync: true) { return }
        try fill(position, providing: made.anyValue)
    }

    /// Fills field `position` with `value`, which an async lookup returned for it: cast by the
    /// field's code to its type.
    private func fill(_ position: Int, providing value: Any) throws(ContextError) {
        let field = plan.with { $0.fields.pinned(at: position) }
        let request = request(field, at: position, isAsync: true)
        _ = try ValueSlot.withTemporary(for: Any.self) { provided throws(ContextError) -> Bool in
            provided.initialize(as: Any.self, to: value)
            defer { provided.deinitialize(as: Any.self) }
            return try fields[headerAt: field.value.headerOffset].fill(fields.wrapper(at: field.value.offset), request, provided)
        }
    }

    /// The rest of an async injection `applyWithoutAwait` started: each field it stopped at is
    /// looked up with `await` (by the route's target when there is one), then filling goes on
    /// without awaiting; `didInject` of a class aware only on the main actor is called there.
    func finish(_ step: AsyncStep) async throws(ContextError) {
        let context = context.object, resolution = resolution.object
        var step = step
        while true {
            switch step {
            case .done:
                return
            case let .awaiting(position):
                do throws(ContextError) {
                    if let routed = routedTarget(at: position) {
                        // The route found it, its edge is recorded and the lookup extends this
                        // resolution: made as `_objectAsync` would make it, without finding it.
                        let made = try await Creation(of: routed.index, in: routed.context.object).madeAsync(in: resolution)
                        try bound { () throws(ContextError) in try fill(position, with: made) }
                    } else {
                        let field = plan.with { $0.fields.pinned(at: position) }
                        let key = fields[headerAt: field.value.headerOffset].key ?? field.value.property
                        try fill(position, providing: try await context._objectAsync(named: key, as: Any.self, from: AsyncRequester(context, requester, resolution, label: field)))
                    }
                } catch {
                    try collectOrThrow(error)
                }
                step = try fillWithoutAwait(from: position + 1)
            case let .awaitingSingleton(position, pending):
                do throws(ContextError) {
                    guard let made = try await pending.finish(resolution) else {
                        // Dropped for what it may hold: made again as any awaited field is.
                        step = .awaiting(position)
                        continue
                    }
                    try bound { () throws(ContextError) in try fill(position, with: made) }
                } catch {
                    try collectOrThrow(error)
                }
                step = try fillWithoutAwait(from: position + 1)
            case let .didInjectOnMainActor(unaware):
                // Bound to the main actor's thread while it runs, as `fillWithoutAwait` binds it.
                let onMainActor: @MainActor @Sendable () -> Bool = {
                    ThreadState.current.runningSynchronously(resolution) { Self.didInject(unaware, from: context) }
                }
                if !(await onMainActor()) { throw isolatedAwareness() }
                return
            }
        }
    }


    /// Fills field `position` if it is pending, as far as it can be without waiting: the one
    /// step of both injections. `false` only for an async injection (`isAsync`) whose field
    /// names an object an async lookup must make; a failure a validation collects counts as
    /// filled.
    @inline(__always)
    private func fill(_ position: Int, isAsync: Bool) throws(ContextError) -> Bool {
        let field = plan.with { $0.fields.pinned(at: position) }
        let header = field.value.headerOffset
        guard fields[headerAt: header].isPending else { return true }
        let request = request(field, at: position, isAsync: isAsync)
        do throws(ContextError) {
            return try fields[headerAt: header].fill(fields.wrapper(at: field.value.offset), request, nil)
        } catch {
            try collectOrThrow(error)
            return true
        }
    }

    /// What the wrapper of `field`, the plan's field `position`, needs to fill itself.
    @inline(__always)
    private func request(_ field: Pinned<InjectionPlan.Field>, at position: Int, isAsync: Bool) -> InjectRequest {
        InjectRequest(
            context: context,
            requester: Requester(context: context, index: requester, resolution: resolution, depth: depth, label: field),
            plan: plan, field: field, isAsync: isAsync, target: route?.with { $0.target(position, in: fields) }
        )
    }

    /// After the fields are filled: the property names learned, and `didInject` called when the
    /// object's class is aware of injection here. Returns the object when its conformance is
    /// isolated to the main actor, for the caller to call `didInject` there; `nil` when done.
    ///
    /// - Throws: while validating, the problem collected for a property left unfilled: the
    ///   object is not injected, so it is neither told it is nor handed to anyone, as outside a
    ///   validation.
    @inline(__always)
    private func fieldsFilled() throws(ContextError) -> UncheckedSendable<AnyObject>? {
        if context.with({ $0.isValidation }) { try throwIfAFieldIsUnfilled() }
        return try plan.with { plan throws(ContextError) in
            PropertyNames.learn(from: plan, in: fields)
            guard plan.isAware, let object = object?.object else { return nil }
            // `didInject` on an actor the context cannot reach: an error, never the wrong actor.
            if plan.isAwareOnAnotherActor { throw isolatedAwareness() }
            if !plan.isAwareOnMainActorOnly, let aware = object as? any InjectionAware {
                aware.didInject(from: context.object)
                return nil
            }
            return UncheckedSendable(object)
        }
    }

    /// Calls `didInject` of `object`, on the main actor (its conformance is isolated there, so
    /// the cast succeeds only there); `false` if the cast fails.
    @MainActor
    private static func didInject(_ object: UncheckedSendable<AnyObject>, from context: ApplicationContext) -> Bool {
        guard let aware = object.value as? any InjectionAware else { return false }
        aware.didInject(from: context)
        return true
    }

    /// The error of an object aware of injection only on the main actor, injected off it.
    private func isolatedAwareness() -> ContextError {
        let context = context.object, plan = plan.object
        return .creationFailed(key: requester >= 0 ? context.key(at: requester) : plan.typeName, path: resolution.object.path, underlying: ConformanceIsolated(type: plan.typeName, protocolName: "InjectionAware", isOnAnotherActor: plan.isAwareOnAnotherActor))
    }

    /// While validating: an object of a synchronous definition (`ownerIsSynchronous`) is
    /// injected synchronously when a synchronous lookup makes it, and any object's `.lazy`
    /// property is read synchronously by its getter, so each such property naming an async
    /// definition that timing could leave unmade is a `requiresAwait` waiting to happen, even
    /// though this (async) validation can make it.
    private func reportSynchronousInjections(ownerIsSynchronous: Bool) {
        let context = context.object, resolution = resolution.object
        for field in plan.object.fields {
            let header = field.headerOffset
            guard fields[headerAt: header].isPending, ownerIsSynchronous || fields[headerAt: header].isLazy else { continue }
            guard let found = context.definition(answering: NameTable.lookupKey(fields[headerAt: header].key ?? field.property)),
                  found.context.records[found.index].isAsync else { continue }
            let isEager = found.context.records[found.index].scope == .eagerSingleton
            guard !isEager || resolution.session.isStarting(found.context) else { continue }
            let target = found.context.key(at: found.index)
            if isEager && !fields[headerAt: header].isLazy {
                // Filled by this awaited injection; synchronously only where a synchronous
                // lookup reaches the owner in the concurrent phase, known once it is over.
                resolution.session.problems?.holdBack(propertyOf: requester, naming: target, foundIn: context.key(at: requester))
            } else {
                resolution.session.problems?.add(.requiresAwait(key: target, path: resolution.path(appending: target)), foundIn: context.key(at: requester))
            }
        }
    }

    /// Records the dependency edges of the fields the route names (pending, not lazy, naming a
    /// definition), before they are filled: in one entry per 64 fields. Only the first object of a definition records edges, as for a lookup by
    /// name. (A field that ends up looked up by name, because its target's context closed or its
    /// type is not the declared one, records its edge again there: edges are deduplicated when
    /// read.)
    @inline(__always)
    private func recordRoutedEdges() {
        guard requester >= 0, let route, !context.with({ $0.records[requester].edgesRecorded.load(ordering: .relaxed) }) else { return }
        route.with { recordEdges(of: $0) }
    }

    @inline(never)
    private func recordEdges(of route: InjectionRoute) {
        let plan = plan.object
        var first = 0
        while first < plan.fields.count {
            var routed: UInt64 = 0
            for bit in 0..<min(UInt64.bitWidth, plan.fields.count - first) {
                let header = plan.fields[first + bit].headerOffset
                guard fields[headerAt: header].isPending, !fields[headerAt: header].isLazy,
                      let target = route.target(first + bit, in: fields), target.index >= 0 else { continue }
                routed |= 1 << UInt64(bit)
            }
            if routed != 0 { context.with { $0.journal }.record(routed: routed, from: first, of: route, for: requester) }
            first += UInt64.bitWidth
        }
        if resolution.object.collectsStartup, let timeline = resolution.object.session.startup?.timeline { noteAsked(route, timeline) }
    }

    /// During a start, the routed fields' targets are asked for now, as they are filled next.
    private func noteAsked(_ route: InjectionRoute, _ timeline: StartupTimeline) {
        for position in plan.object.fields.indices {
            let header = plan.object.fields[position].headerOffset
            guard fields[headerAt: header].isPending, !fields[headerAt: header].isLazy,
                  let target = route.target(position, in: fields), target.index >= 0 else { continue }
            context.with { timeline.asked(target.index, levels: target.levels, from: requester, of: $0) }
        }
    }

    /// A validation goes on with the other properties of its scratch context's objects, to
    /// collect their problems too, then fails the object (`fieldsFilled`); every other context
    /// throws at once. Either way no object whose injection failed is published or handed on.
    private func collectOrThrow(_ error: ContextError) throws(ContextError) {
        let context = context.object, resolution = resolution.object
        guard context.isValidation, let problems = resolution.session.problems else { throw error }
        problems.add(error, foundIn: resolution.path.last ?? plan.object.typeName)
        resolution.collectedProblem = error
    }

    /// Throws the last problem this validation collected, if a property of the object is still
    /// pending: its lookup failed (a failure leaves the property pending).
    @inline(never)
    private func throwIfAFieldIsUnfilled() throws(ContextError) {
        guard let problem = resolution.with({ $0.collectedProblem }) else { return }
        for field in plan.object.fields where fields[headerAt: field.headerOffset].isPending {
            throw problem
        }
    }

    // MARK: A made object

    /// Injects the object `context` just made for definition `index`, a `T` in the slot `made`
    /// (a class reference, or a struct's own storage). The per-definition route makes this one
    /// atomic load and a comparison for types with nothing to inject.
    @inline(__always)
    static func injectMade<T>(at made: ValueSlot, as _: T.Type, isClass: Bool, _ index: Int, of context: ApplicationContext, _ resolution: Resolution) throws(ContextError) {
        if let route = context.records[index].injection.load(ordering: .acquiring),
           route.with({ route in
               route.plan.typeID == dynamicTypeID(of: made, as: T.self, isClass: isClass)
                   && (route.plan.isEmpty || (route.plan.isEmptyUnlessStripped && resolution.boundThread?.with { $0.injectInits } == 0))
           }) {
            return
        }
        try injectMadeSlow(at: made, as: T.self, isClass: isClass, index, of: context, resolution)
    }

    /// Injects an object whose type has something to inject, or whose route is not made yet.
    @inline(never)
    private static func injectMadeSlow<T>(at made: ValueSlot, as _: T.Type, isClass: Bool, _ index: Int, of context: ApplicationContext, _ resolution: Resolution) throws(ContextError) {
        let wrappersMade = resolution.boundThread?.with { $0.injectInits } ?? 0
        try ObjectInjection(of: made, as: T.self, isClass: isClass, index, context, resolution, wrappersMade: wrappersMade)?.apply()
    }

    /// Starts injecting `made`, an object of definition `index` of `context` made by an async
    /// lookup, in place: every property that needs no await is filled here (`applyWithoutAwait`);
    /// the injection to finish with `finish` if one does, else `nil`. (The stripped-reflection
    /// check needs the count of wrappers made on one thread, which an async closure does not
    /// have; it is done by synchronous makes only.)
    static func injectWithoutAwait(_ made: MadeValue, _ index: Int, of context: ApplicationContext, _ resolution: Resolution) throws(ContextError) -> (injection: ObjectInjection, step: AsyncStep)? {
        func inject<Object>(_: Object.Type, _ context: ApplicationContext, _ made: MadeValue, _ index: Int, _ resolution: Resolution) throws(ContextError) -> (injection: ObjectInjection, step: AsyncStep)? {
            let isClass = context.records[index].isClassType
            // The injection outlives the slot: it holds where the fields lie (the object, or the
            // box's storage of a struct), which `made` keeps, not the slot.
            return try made.withSlot { slot throws(ContextError) -> (injection: ObjectInjection, step: AsyncStep)? in
                guard let injection = try ObjectInjection(of: slot, as: Object.self, isClass: isClass, index, context, resolution, wrappersMade: 0) else { return nil }
                let step = try injection.applyWithoutAwait()
                if case .done = step { return nil }
                return (injection, step)
            }
        }
        return try inject(context.records[index].objectType, context, made, index, resolution)
    }

    // MARK: Preparing

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
    private static func dynamicType<T>(of made: ValueSlot, as _: T.Type, isClass: Bool) -> Any.Type {
        guard isClass else { return type(of: made[as: T.self] as Any) }
        return made.withObject { type(of: $0) }
    }

    /// The route of definition `index` of `context` if it is for objects of `typeID`.
    @inline(__always)
    private static func route(_ index: Int, of context: ApplicationContext, for typeID: ObjectIdentifier) -> InjectionRoute? {
        guard let route = context.records[index].injection.load(ordering: .acquiring)?.object, route.plan.typeID == typeID else { return nil }
        return route
    }

    /// Where the `@Inject` fields of the `T` at `made` lie, for `plan` (its dynamic type's): the
    /// object itself for a class instance, `made` for a struct declared as its own type; `nil`
    /// for a struct inside an existential, whose storage is not at `made`.
    @inline(__always)
    private static func location<T>(of made: ValueSlot, as _: T.Type, isClass: Bool, _ plan: InjectionPlan) -> (fields: ObjectFields, object: AnyObject?)? {
        if plan.isClass {
            // `as AnyObject` is a full dynamic cast: a class-typed definition reinterprets instead.
            let object = isClass ? made.value(as: AnyObject.self) : made[as: T.self] as AnyObject
            return (ObjectFields(of: object), object)
        }
        if ObjectIdentifier(T.self) == plan.typeID { return (ObjectFields(in: made), nil) }
        return nil
    }

    /// Where the object's fields to inject lie (`location`), checked against what reflection
    /// shows of its type; `nil`: nothing to inject.
    @inline(__always)
    private static func target<T>(_ plan: InjectionPlan, _ made: ValueSlot, as _: T.Type, isClass: Bool, _ index: Int, _ context: ApplicationContext, _ resolution: Resolution, wrappersMade: Int) throws(ContextError) -> (fields: ObjectFields, object: AnyObject?)? {
        if plan.isEmpty { return nil }
        if plan.reportsNoFields {
            // No fields visible: either the type has none, or reflection metadata is stripped.
            // Wrappers initialised while making it tell the two apart.
            if wrappersMade > 0 { throw .reflectionUnavailable(type: plan.typeName) }
            if !plan.isAware { return nil }
        }
        if let location = location(of: made, as: T.self, isClass: isClass, plan) { return location }
        // A struct inside an existential: its storage is not at `made`, and a generic copy of
        // it cannot be had without knowing its type. Say so rather than skip it.
        throw structNotInPlace(plan, index, of: context, resolution, isOptional: false)
    }

    /// The error of a struct with `@Inject` properties that definition `index` returns inside an
    /// existential or an optional (`isOptional`), where it cannot be filled in place.
    @inline(never)
    private static func structNotInPlace(_ plan: InjectionPlan, _ index: Int, of context: ApplicationContext, _ resolution: Resolution, isOptional: Bool) -> ContextError {
        let key = context.key(at: index)
        return .creationFailed(key: key, path: resolution.path, underlying: StructInExistentialInjectionError(type: plan.typeName, key: key, isOptional: isOptional))
    }

    /// The plan and route for an object of `typeID` at `made`, making the definition's route
    /// the first time (the first type it makes keeps it).
    @inline(__always)
    private static func planAndRoute<T>(for made: ValueSlot, as _: T.Type, isClass: Bool, _ index: Int, of context: ApplicationContext) -> (InjectionPlan, InjectionRoute?) {
        let typeID = dynamicTypeID(of: made, as: T.self, isClass: isClass)
        if let route = route(index, of: context, for: typeID) { return (route.plan, route) }
        if let route = context.siblingRoute(at: index, for: typeID) { return (route.plan, route) }
        let plan = InjectionPlan.of(dynamicType(of: made, as: T.self, isClass: isClass))
        guard context.records[index].injection.load(ordering: .acquiring) == nil else { return (plan, nil) }
        guard let location = location(of: made, as: T.self, isClass: isClass, plan) else { return (plan, nil) }
        let made = withExtendedLifetime(location.object) { InjectionRoute.make(plan, for: context, object: location.fields) }
        if context.records[index].injection.compareExchange(expected: nil, desired: made, ordering: .acquiringAndReleasing).exchanged {
            context.teach(made, at: index)
            return (plan, made.object)
        }
        if !made.with({ $0.isShared }) { made.release() }
        return (plan, nil)
    }
}
