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
    let targets: HeapBuffer<Target>
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
    static func make(_ plan: InjectionPlan, for context: ApplicationContext, object fields: ObjectFields) -> Unretained<InjectionRoute> {
        guard plan.fields.isEmpty else {
            guard let parent = context.parentRef else { return .retained(InjectionRoute(plan, for: context, object: fields, isShared: false)) }
            let kept = parent.with { parent in
                parent.childRoutes.route(for: plan, names: context.configuration.table) { InjectionRoute(plan, for: context, object: fields, isShared: false) }
            }
            if kept.with({ $0.matches(fields) }) { return kept }
            kept.release()
            return .retained(InjectionRoute(plan, for: context, object: fields, isShared: false))
        }
        if let shared = plan.sharedRoute.load(ordering: .acquiring) { return shared }
        let made = Unretained.retained(InjectionRoute(plan, for: context, object: fields, isShared: true))
        let (exchanged, original) = plan.sharedRoute.compareExchange(expected: nil, desired: made, ordering: .acquiringAndReleasing)
        if exchanged { return made }
        made.release()
        return original!
    }

    private init(_ plan: InjectionPlan, for context: ApplicationContext, object fields: ObjectFields, isShared: Bool) {
        self.plan = plan
        self.isShared = isShared
        targets = HeapBuffer(count: plan.fields.count)
        var keys: [String?] = []
        keys.reserveCapacity(plan.fields.count)
        var last = 0
        var up = context.parentRef
        while let parent = up {
            last += 1
            up = parent.with { $0.parentRef }
        }
        for (position, field) in plan.fields.enumerated() {
            let key = fields[headerAt: field.headerOffset].key
            let found = context.definition(answering: NameTable.lookupKey(key ?? field.property))
            targets.initialize(position, to: Target(index: found?.index ?? -1, levels: found?.levels ?? last))
            keys.append(key)
        }
        keysAreNames = keys.allSatisfy { $0 == nil }
        self.keys = keys
    }

    /// Whether the wrappers of an object (its `fields`) have the keys this route was found for:
    /// keys are values, set by each object's initialiser, so a child's object could name others.
    func matches(_ fields: ObjectFields) -> Bool {
        let plan = plan.fields
        if keysAreNames {
            // The common case, without copying or comparing a string: no wrapper names a key.
            for position in plan.indices where fields[headerAt: plan[position].headerOffset].key != nil {
                return false
            }
            return true
        }
        for position in plan.indices {
            guard fields[headerAt: plan[position].headerOffset].key == keys[position] else { return false }
        }
        return true
    }

    /// The target of field `position` of an object (its `fields`), if the field's wrapper has
    /// the key the target was found for; `nil` (look it up by name) for an object of the same
    /// definition whose initialiser chose another.
    @inline(__always)
    func target(_ position: Int, in fields: ObjectFields) -> Target? {
        let header = plan.fields[position].headerOffset
        if keysAreNames ? fields[headerAt: header].key != nil : fields[headerAt: header].key != keys[position] { return nil }
        return targets[position]
    }

    deinit {
        targets.deallocate()
    }
}
