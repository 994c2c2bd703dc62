/// How objects of one type are injected in one context: the type's plan, and for each field the
/// definition its key names in the context's chain, as an index and a number of parents up.
///
/// Names never change once a context is built, so the second object made is injected without
/// hashing a key or touching a string: a field whose target is a made singleton is one atomic
/// load and a copy. A route names no context: it says how many parents up from the injecting
/// context the target lies, so every child with the same name table under the same parent has
/// the same route, and the parent keeps it for them (`ChildRoutes`): a context made per request
/// finds no route. Only synchronous definitions of the field's type are taken this way, after
/// the walk up to them found every context open; everything else takes the lookup by name,
/// which applies every rule.
@usableFromInline
final class InjectionRoute: @unchecked Sendable {
    // Safe: immutable after init; `targets` is written only in init and freed in deinit.
    @usableFromInline
    struct Target {
        /// The definition in the context `levels` parents up; -1 when none answers.
        let index: Int
        /// How many parents up from the injecting context; for a key nobody answers, the last
        /// context of the chain, so the walk still meets a closed parent as a lookup would.
        let levels: Int
    }

    let plan: InjectionPlan
    let targets: UnsafeMutablePointer<Target>
    /// The key each target was found for: the wrapper's own key, or `nil` for the property's
    /// name. A route kept for children is taken only for an object whose wrappers have the same
    /// keys (`matches(_:)`). Apart from the targets, which stay trivial to read.
    let keys: [String?]
    /// Every key is `nil`: each field is looked up by its property's name.
    let keysAreNames: Bool
    /// Shared by every context (a type without fields): never released by a record.
    let isShared: Bool

    /// The route of `plan`'s type for `context`, retained for the caller: the type's shared
    /// route when it has no fields, the one `context`'s parent keeps for its children with
    /// `context`'s names, or a new one.
    static func make(_ plan: InjectionPlan, for context: ApplicationContext, object base: UnsafeMutableRawPointer) -> Unmanaged<InjectionRoute> {
        guard plan.fields.isEmpty else {
            guard let parent = context.parentRef else { return .passRetained(InjectionRoute(plan, for: context, object: base, isShared: false)) }
            let kept = parent.withGuaranteedReference { parent in
                parent.childRoutes.route(for: plan, names: context.table) { InjectionRoute(plan, for: context, object: base, isShared: false) }
            }
            if kept.withGuaranteedReference({ $0.matches(base) }) { return kept }
            kept.release()
            return .passRetained(InjectionRoute(plan, for: context, object: base, isShared: false))
        }
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
        var keys: [String?] = []
        keys.reserveCapacity(plan.fields.count)
        var last = 0
        var up = context.parentRef
        while let parent = up {
            last += 1
            up = parent.withGuaranteedReference { $0.parentRef }
        }
        for (position, field) in plan.fields.enumerated() {
            let header = (base + field.headerOffset).assumingMemoryBound(to: InjectHeader.self)
            let key = header.pointee.key
            let found = context.definition(answering: NameTable.lookupKey(key ?? field.property))
            (targets + position).initialize(to: Target(index: found?.index ?? -1, levels: found?.levels ?? last))
            keys.append(key)
        }
        keysAreNames = keys.allSatisfy { $0 == nil }
        self.keys = keys
    }

    /// Whether the wrappers of the object at `base` have the keys this route was found for:
    /// keys are values, set by each object's initialiser, so a child's object could name others.
    func matches(_ base: UnsafeMutableRawPointer) -> Bool {
        let fields = plan.fields
        if keysAreNames {
            // The common case, without copying or comparing a string: no wrapper names a key.
            for position in fields.indices where (base + fields[position].headerOffset).assumingMemoryBound(to: InjectHeader.self).pointee.key != nil {
                return false
            }
            return true
        }
        for position in fields.indices {
            let header = (base + fields[position].headerOffset).assumingMemoryBound(to: InjectHeader.self)
            guard header.pointee.key == keys[position] else { return false }
        }
        return true
    }

    /// The target of field `position` for a wrapper whose header is `header`, if the wrapper has
    /// the key the target was found for; `nil` (look it up by name) for an object of the same
    /// definition whose initialiser chose another.
    @inline(__always)
    func target(_ position: Int, for header: UnsafeMutablePointer<InjectHeader>) -> UnsafePointer<Target>? {
        if keysAreNames ? header.pointee.key != nil : header.pointee.key != keys[position] { return nil }
        return UnsafePointer(targets + position)
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
    /// A synchronous prototype declared as the field's type, or (in a synchronous injection) a
    /// synchronous singleton not made yet: `makeTarget(into:)` makes it without looking its key
    /// up again.
    case toMake
    /// No context answers to the key.
    case missing
    /// Look it up by name.
    case lookUp
}

extension InjectRequest {
    /// The field's object straight from the route, when that is safe: every context up to the
    /// target is open, the target is a synchronous definition declared as `type`. The
    /// dependency edge is recorded as a lookup by name records it (the first time the
    /// requesting definition is made).
    @usableFromInline
    func routed(_ type: ObjectIdentifier) -> RoutedField {
        guard let target, requester.index >= 0 else { return .lookUp }
        guard let context = requester.context.withGuaranteedReference({ $0.openAncestor(target.pointee.levels) }) else { return .lookUp }
        let index = target.pointee.index
        guard index >= 0 else { return .missing }
        let routed = context.withGuaranteedReference { context -> RoutedField in
            guard context.records[index].typeID == type, !context.records[index].isAsync else { return .lookUp }
            if context.records[index].scope == .prototype { return .toMake }
            guard let made = context.records[index].published.load(ordering: .acquiring) else {
                // An async injection awaits a singleton being made rather than block for it.
                return isAsync ? .lookUp : .toMake
            }
            return .made(made)
        }
        if case .lookUp = routed { return .lookUp }
        requester.recordEdge(to: index, levels: target.pointee.levels)
        return routed
    }

    /// Whether a context of the injecting one's chain answers to the field's key `name`: from
    /// the route when there is one.
    @usableFromInline
    func answers(_ name: String) -> Bool {
        if let target { return target.pointee.index >= 0 }
        return context.contains(name)
    }

    /// Makes the object the route names for this field (after `routed` said `.toMake`) into
    /// `result`, uninitialised memory of the field's type: as a lookup by name would, once it
    /// found the definition.
    @usableFromInline
    func makeTarget(into result: UnsafeMutableRawPointer) throws(ContextError) {
        let target = target!.pointee
        let requester = requester
        let found = requester.context.withGuaranteedReference { $0.ancestor(target.levels) }
        // At +0: the injecting context keeps the target's context (itself or a parent) alive.
        _ = try found.withGuaranteedReference { context throws(ContextError) in
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
