extension ApplicationContext {
    /// Injects the `@Inject` properties of an object this context did not make (a view
    /// controller from a storyboard, a test's subject), then calls its `didInject(from:)`.
    ///
    /// Properties that already hold a value are left alone. Keys are matched against keys and
    /// aliases through the parent chain.
    ///
    /// - Throws: ``ContextError/unresolvedInjection(type:property:key:)`` for a required property
    ///   with no matching object, ``ContextError/typeMismatch(key:expected:actual:path:)``, and any
    ///   error of making the injected objects.
    public func inject(into object: AnyObject) throws(ContextError) {
        let plan = InjectionPlan.of(type(of: object))
        if plan.isEmpty { return }
        try apply(plan, to: object, requester: nil)
    }

    /// Injects an object this context just made for definition `index`. The per-definition plan
    /// cache makes this one atomic load and a comparison for types with nothing to inject.
    @inline(__always)
    func injectMade<T>(_ made: T, isClass: Bool, _ index: Int, _ stack: CreationStack) throws(ContextError) {
        // `type(of:)` on an unspecialised `T` asks the runtime to open existentials; a class
        // reference only needs its isa read.
        let typeID = isClass ? ObjectIdentifier(type(of: unsafeBitCast(made, to: AnyObject.self))) : ObjectIdentifier(type(of: made))
        if let cached = plans[index].load(ordering: .acquiring), cached._withUnsafeGuaranteedRef({ $0.typeID == typeID && $0.isEmpty }) {
            return
        }
        try injectMadeSlow(made, isClass: isClass, index, stack)
    }

    /// Injects an object whose type has something to inject, or whose plan is not cached yet.
    @inline(never)
    private func injectMadeSlow<T>(_ made: T, isClass: Bool, _ index: Int, _ stack: CreationStack) throws(ContextError) {
        let typeID = isClass ? ObjectIdentifier(type(of: unsafeBitCast(made, to: AnyObject.self))) : ObjectIdentifier(type(of: made))
        let plan: InjectionPlan
        if let cached = plans[index].load(ordering: .acquiring)?.takeUnretainedValue(), cached.typeID == typeID {
            plan = cached
        } else {
            plan = InjectionPlan.of(type(of: made as Any))
            plans[index].store(Unmanaged.passUnretained(plan), ordering: .releasing)
        }
        if plan.isEmpty { return }
        try applyMade(plan, Self.reference(to: made, isClass: isClass), index, stack)
    }

    /// The object `made` refers to; the plan being non-empty says it is a class instance.
    /// `as AnyObject` is a full dynamic cast, so a definition declared with a class type is
    /// converted by reinterpreting the reference instead.
    @inline(__always)
    private static func reference<T>(to made: T, isClass: Bool) -> AnyObject {
        isClass ? unsafeBitCast(made, to: AnyObject.self) : made as AnyObject
    }

    private func applyMade(_ plan: InjectionPlan, _ made: AnyObject, _ index: Int, _ stack: CreationStack) throws(ContextError) {
        if plan.reportsNoFields {
            // No fields visible: either the class has none, or reflection metadata is stripped.
            // Wrappers initialised while making it tell the two apart.
            if stack.injectInits > 0 { throw .reflectionUnavailable(type: plan.typeName) }
            if !plan.isAware { return }
        }
        try apply(plan, to: made, requester: index)
    }

    private func apply(_ plan: InjectionPlan, to object: AnyObject, requester: Int?) throws(ContextError) {
        let base = Unmanaged.passUnretained(object).toOpaque()
        try withExtendedLifetime(object) { () throws(ContextError) in
            for field in plan.fields {
                let header = (base + field.headerOffset).assumingMemoryBound(to: InjectHeader.self)
                guard header.pointee.isPending else { continue }
                let request = InjectRequest(context: self, requester: requester, property: field.property, ownerName: plan.typeName)
                do throws(ContextError) {
                    try header.pointee.fill(base + field.offset, request)
                } catch {
                    let stack = ThreadLocal.creationStack
                    guard let problems = stack.problems else { throw error }
                    problems.add(error, foundIn: stack.path.last ?? plan.typeName)
                }
            }
        }
        if plan.isAware, let aware = object as? any InjectionAware { aware.didInject(from: self) }
    }
}
