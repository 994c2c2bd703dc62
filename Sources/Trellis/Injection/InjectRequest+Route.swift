extension InjectRequest {
    /// The field's object straight from the route, when that is safe: every context up to the
    /// target is open, the target is a synchronous definition (declared as `type`, or converted
    /// or cast to it: `convertible`, `toMakeAny`). The
    /// dependency edge is recorded by the injection, with the object's other routed fields,
    /// before any is filled (`recordRoutedEdges`).
    @usableFromInline
    func routed(_ type: ObjectIdentifier) -> RoutedField {
        guard let target, requester.index >= 0 else { return .lookUp }
        guard let context = requester.context.with({ $0.openAncestor(target.levels) }) else { return .lookUp }
        let index = target.index
        guard index >= 0 else { return .missing }
        return context.with { context -> RoutedField in
            guard !context.records[index].isAsync else { return isAsync ? .toAwait : .lookUp }
            guard context.records[index].typeID == type else {
                // A prototype declared as another type is made as `Any` for the field's code to
                // cast; a singleton is looked at apart.
                if context.records[index].scope == .prototype { return .toMakeAny }
                return routedAsOtherType(index, of: context, type)
            }
            if context.records[index].scope == .prototype { return .toMake }
            guard let made = context.records[index].published.load(ordering: .acquiring) else {
                // An async injection awaits a singleton being made rather than block for it.
                return isAsync ? .toAwait : .toMake
            }
            return .made(made)
        }
    }

    /// `routed` for a singleton declared as another type than the field's (`type`): its kept
    /// conversion to it, else the made singleton to convert; not made yet, made as `Any` for the
    /// field's code to cast (in a synchronous injection). Apart, so the common route (a target
    /// declared as the field's type) stays short.
    @inline(never)
    private func routedAsOtherType(_ index: Int, of context: ApplicationContext, _ type: ObjectIdentifier) -> RoutedField {
        if let made = context.records[index].published.load(ordering: .acquiring) {
            return context.records[index].keptConversion(to: type).map(RoutedField.made) ?? .convertible(made, Unretained(context))
        }
        return isAsync ? .toAwait : .toMakeAny
    }

    /// Writes the made singleton of the field's target, whose published value is `made` in
    /// `context` (both as `routed` found them), into `result` as a `T`
    /// (`DefinitionRecord.converted`); `false` when it is not a `T` here, for the caller to look
    /// it up by name (which reports the mismatch).
    @usableFromInline
    func convert<T>(_ made: ValueSlot, in context: Unretained<ApplicationContext>, as _: T.Type, into result: ValueSlot) -> Bool {
        let index = target!.index
        return context.with { context -> Bool in
            do throws(NotConvertible) {
                result.initialize(as: T.self, to: try context.records[index].converted(made, as: T.self))
                return true
            } catch {
                return false
            }
        }
    }

    /// The type the field's target is declared as, in `context` (the target's, as `routed` found
    /// it).
    @usableFromInline
    func declaredType(in context: Unretained<ApplicationContext>) -> ObjectIdentifier {
        let index = target!.index
        return context.with { $0.records[index].typeID }
    }

    /// Whether a context of the injecting one's chain answers to the field's key `name`: from
    /// the route when there is one.
    @usableFromInline
    func answers(_ name: String) -> Bool {
        if let target { return target.index >= 0 }
        return context.with { $0.contains(name) }
    }

    /// Makes the object the route names for this field (after `routed` said `.toMake`) into
    /// `result`, uninitialised memory of the field's type: as a lookup by name would, once it
    /// found the definition.
    @usableFromInline
    func makeTarget(into result: ValueSlot) throws(ContextError) {
        let target = target!
        let requester = requester
        let found = requester.context.with { $0.ancestor(target.levels) }
        // At +0: the injecting context keeps the target's context (itself or a parent) alive.
        try found.with { context throws(ContextError) in
            // An injection runs on the thread executing its resolution (an async one binds it
            // while it fills without awaiting), at the injected object's frame: no need to ask
            // the thread which resolution that is.
            try requester.resolution.with { resolution throws(ContextError) in
                guard let thread = resolution.boundThread, resolution.depth == requester.depth else {
                    return try Creation(of: target.index, in: context).make(into: result, from: requester)
                }
                try thread.with { thread throws(ContextError) in
                    try Creation(of: target.index, in: context).make(into: result, in: resolution, on: thread)
                }
            }
        }
    }

    /// Makes the object the route names for this field (after `routed` said `.toMakeAny`: it is
    /// declared as another type than the field's), as `Any`, for the field's own code to cast.
    @usableFromInline
    func makeTargetAny() throws(ContextError) -> Any {
        let target = target!
        let requester = requester
        let found = requester.context.with { $0.ancestor(target.levels) }
        // As `makeTarget`, kept apart from it: sharing one body through a closure cost the
        // prototype's hot path about 130 instructions.
        return try found.with { context throws(ContextError) -> Any in
            try requester.resolution.with { resolution throws(ContextError) -> Any in
                guard let thread = resolution.boundThread, resolution.depth == requester.depth else {
                    return try Creation(of: target.index, in: context).makeAny(from: requester)
                }
                return try thread.with { thread throws(ContextError) -> Any in
                    try Creation(of: target.index, in: context).makeAny(in: resolution, on: thread)
                }
            }
        }
    }

    /// Makes the object the route names for this field (after `routed` said `.toMakeAny`: it is
    /// declared as another type than the field's) and writes it as a `T`, the field's type, into
    /// `result`: an instance of a class type cast by `ObjectCast` (no runtime cast after the
    /// first object of the class), any other value made as `Any` and cast.
    ///
    /// - Throws: what making it throws; `typeMismatch` when it is not a `T`.
    @usableFromInline
    func makeTarget<T>(as _: T.Type, into result: ValueSlot) throws(ContextError) {
        let target = target!
        let isClass = requester.context.with { $0.ancestor(target.levels).with { $0.records[target.index].isClassType } }
        guard isClass else { return try makeTargetValue(as: T.self, into: result) }
        let object = try ValueSlot.making(AnyObject.self) { slot throws(ContextError) in try makeTarget(into: slot) }
        if ObjectCast.cast(object, to: T.self, into: result) == .failed { throw targetMismatch(object, as: T.self) }
    }

    /// Makes the object the route names for this field (after `routed` said `.toMakeAny`) into
    /// `made`, an empty slot for a class reference, when its definition is of a class type, and
    /// returns the type it is declared as; `nil`, making nothing, otherwise. For a field of
    /// optional type (`Inject.fillWrapping`), which wraps the object rather than cast it.
    @usableFromInline
    func makeTargetObject(into made: ValueSlot) throws(ContextError) -> ObjectIdentifier? {
        let target = target!
        let found = requester.context.with { $0.ancestor(target.levels) }
        guard found.with({ $0.records[target.index].isClassType }) else { return nil }
        try makeTarget(into: made)
        return found.with { $0.records[target.index].typeID }
    }

    /// Writes `object`, the field's target just made, into `result` as a `T` (the field's type)
    /// by a cast, for a field whose type is not an optional of the target's declared type.
    ///
    /// - Throws: `typeMismatch` when it is not a `T`.
    @usableFromInline
    func cast<T>(_ object: AnyObject, as _: T.Type, into result: ValueSlot) throws(ContextError) {
        if ObjectCast.cast(object, to: T.self, into: result) == .failed { throw targetMismatch(object, as: T.self) }
    }

    /// `makeTarget(as:into:)` for a target that is not an instance of a class type: made as
    /// `Any` and cast. Apart, so the class path does not fetch `Optional<T>`'s metadata for this
    /// cast (the compiler asks for it on entry).
    @inline(never)
    private func makeTargetValue<T>(as _: T.Type, into result: ValueSlot) throws(ContextError) {
        let made = try makeTargetAny()
        guard let typed = made as? T else { throw targetMismatch(made, as: T.self) }
        result.initialize(as: T.self, to: typed)
    }

    /// The error of a field whose target, made as `Any`, is not a `T` (the field's type).
    @usableFromInline
    func targetMismatch<T>(_ value: Any, as _: T.Type) -> ContextError {
        let target = target!
        let key = requester.context.with { $0.ancestor(target.levels).with { $0.key(at: target.index) } }
        return typeMismatch(key, expected: T.self, actual: value)
    }
}
