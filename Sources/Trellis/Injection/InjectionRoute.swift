/// How one definition of one context injects the objects it makes of one type: the type's plan,
/// and for each field the definition its key names in the context's chain, found once.
///
/// Names never change once a context is built, so the second object made is injected without
/// hashing a key or touching a string: a field whose target is a made singleton is one atomic
/// load and a copy. The route is used only after the definition was made once (its dependency
/// edges are recorded by then) and only for synchronous definitions; everything else takes the
/// lookup by name, which applies every rule.
@usableFromInline
final class InjectionRoute: @unchecked Sendable {
    // Safe: immutable after init; `targets` is written only in init and freed in deinit.
    @usableFromInline
    struct Target {
        /// The context answering to the field's key (the injecting one or a parent), unretained:
        /// a context keeps its parents alive; `nil` when none answers.
        let context: Unmanaged<ApplicationContext>?
        let index: Int
        /// How many parents up from the injecting context.
        let levels: Int
    }

    let plan: InjectionPlan
    let targets: UnsafeMutablePointer<Target>
    /// Shared by every context (a type without fields): never released by a record.
    let isShared: Bool

    /// The route of `plan`'s type for `context`, or the type's shared route when it has no
    /// fields; retained for the caller either way.
    static func make(_ plan: InjectionPlan, for context: ApplicationContext, object base: UnsafeMutableRawPointer) -> Unmanaged<InjectionRoute> {
        guard plan.fields.isEmpty else { return .passRetained(InjectionRoute(plan, for: context, object: base, isShared: false)) }
        if let shared = plan.sharedRoute.load(ordering: .acquiring) { return shared }
        let made = Unmanaged.passRetained(InjectionRoute(plan, for: context, object: base, isShared: true))
        let (exchanged, original) = plan.sharedRoute.compareExchange(expected: nil, desired: made, ordering: .acquiringAndReleasing)
        if exchanged { return made }
        made.release()
        return original!
    }

    private init(_ plan: InjectionPlan, for context: ApplicationContext, object base: UnsafeMutableRawPointer, isShared: Bool) {
        self.plan = plan
        self.isShared = isShared
        targets = .allocate(capacity: max(plan.fields.count, 1))
        for (position, field) in plan.fields.enumerated() {
            let header = (base + field.headerOffset).assumingMemoryBound(to: InjectHeader.self)
            let found = context.definition(answering: NameTable.lookupKey(header.pointee.key ?? field.property))
            (targets + position).initialize(to: found.map { Target(context: .passUnretained($0.context), index: $0.index, levels: $0.levels) }
                ?? Target(context: nil, index: 0, levels: 0))
        }
    }

    deinit {
        targets.deallocate()
    }
}

/// What a route says about one field.
@usableFromInline
enum RoutedField {
    /// The made singleton, declared as the field's type, is here.
    case made(UnsafeRawPointer)
    /// A synchronous prototype declared as the field's type: `makePrototype(into:)` makes it
    /// without looking its key up again.
    case prototype
    /// No context answers to the key.
    case missing
    /// Look it up by name.
    case lookUp
}

extension InjectRequest {
    /// The field's object straight from the route, when that is safe: the requesting definition
    /// was made once (edges recorded), every context up to the target is open, the target is a
    /// synchronous definition declared as `type`.
    @usableFromInline
    func routed(_ type: ObjectIdentifier) -> RoutedField {
        guard let target, requester.index >= 0 else { return .lookUp }
        let requesterMadeOnce = requester.context._withUnsafeGuaranteedRef { $0.records[requester.index].edgesRecorded.load(ordering: .relaxed) }
        guard requesterMadeOnce else { return .lookUp }
        var current: Unmanaged<ApplicationContext>? = requester.context
        for _ in 0...target.pointee.levels {
            guard let context = current else { return .lookUp }
            let (closed, parent) = context._withUnsafeGuaranteedRef { ($0.isClosed, $0.parentRef) }
            if closed { return .lookUp }
            current = parent
        }
        guard let context = target.pointee.context else { return .missing }
        return context._withUnsafeGuaranteedRef { context in
            let index = target.pointee.index
            guard context.records[index].typeID == type, !context.records[index].isAsync else { return .lookUp }
            if context.records[index].scope == .prototype { return .prototype }
            guard let made = context.records[index].published.load(ordering: .acquiring) else { return .lookUp }
            return .made(made)
        }
    }

    /// Makes the prototype the route names for this field (after `routed` said `.prototype`)
    /// into `result`, uninitialised memory of the field's type.
    @usableFromInline
    func makePrototype(into result: UnsafeMutableRawPointer) throws(ContextError) {
        let target = target!.pointee
        let requester = requester
        // At +0: the injecting context keeps the target's context (itself or a parent) alive.
        _ = try target.context!.withGuaranteedReference { context throws(ContextError) in
            guard !isAsync else { return try context.make(target.index, into: result, from: requester) }
            // A synchronous injection runs on the thread executing its resolution, at the
            // injected object's frame: no need to ask the thread which resolution that is.
            return try requester.resolution.withGuaranteedReference { resolution throws(ContextError) in
                guard let thread = resolution.boundThread, resolution.depth == requester.depth else {
                    return try context.make(target.index, into: result, from: requester)
                }
                return try thread.withGuaranteedReference { thread throws(ContextError) in
                    try context.make(target.index, into: result, in: resolution, on: thread)
                }
            }
        }
    }
}
