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
        try withExtendedLifetime(object) { () throws(ContextError) in
            try apply(plan, at: Unmanaged.passUnretained(object).toOpaque(), object: object, requester: nil)
        }
    }

    /// Injects the object this context just made for definition `index`, which lies at `made`
    /// (a class reference, or a struct's own storage). The per-definition plan cache makes this
    /// one atomic load and a comparison for types with nothing to inject.
    @inline(__always)
    func injectMade<T>(at made: UnsafeMutablePointer<T>, isClass: Bool, _ index: Int, _ stack: CreationStack) throws(ContextError) {
        if let cached = plans[index].load(ordering: .acquiring),
           cached._withUnsafeGuaranteedRef({ $0.isEmpty && $0.typeID == Self.dynamicTypeID(of: made, isClass: isClass) }) {
            return
        }
        try injectMadeSlow(at: made, isClass: isClass, index, stack)
    }

    /// `type(of:)` on an unspecialised `T` asks the runtime to open existentials; a class
    /// reference only needs its isa read.
    @inline(__always)
    private static func dynamicTypeID<T>(of made: UnsafeMutablePointer<T>, isClass: Bool) -> ObjectIdentifier {
        guard isClass else { return ObjectIdentifier(type(of: made.pointee)) }
        // Read the reference where it lies instead of copying the value out (a retain and a
        // release through the value witness table of an unspecialised `T`).
        let object = UnsafeRawPointer(made).load(as: UnsafeRawPointer.self)
        return Unmanaged<AnyObject>.fromOpaque(object)._withUnsafeGuaranteedRef { ObjectIdentifier(type(of: $0)) }
    }

    /// Injects an object whose type has something to inject, or whose plan is not cached yet.
    @inline(never)
    private func injectMadeSlow<T>(at made: UnsafeMutablePointer<T>, isClass: Bool, _ index: Int, _ stack: CreationStack) throws(ContextError) {
        let typeID = Self.dynamicTypeID(of: made, isClass: isClass)
        let plan: InjectionPlan
        if let cached = plans[index].load(ordering: .acquiring)?.takeUnretainedValue(), cached.typeID == typeID {
            plan = cached
        } else {
            plan = InjectionPlan.of(type(of: made.pointee as Any))
            plans[index].store(Unmanaged.passUnretained(plan), ordering: .releasing)
        }
        if plan.isEmpty { return }
        if plan.reportsNoFields {
            // No fields visible: either the type has none, or reflection metadata is stripped.
            // Wrappers initialised while making it tell the two apart.
            if stack.injectInits > 0 { throw .reflectionUnavailable(type: plan.typeName) }
            if !plan.isAware { return }
        }
        if plan.isClass {
            // `as AnyObject` is a full dynamic cast: a class-typed definition reinterprets instead.
            let object = isClass ? unsafeBitCast(made.pointee, to: AnyObject.self) : made.pointee as AnyObject
            try withExtendedLifetime(object) { () throws(ContextError) in
                try apply(plan, at: Unmanaged.passUnretained(object).toOpaque(), object: object, requester: index)
            }
        } else if ObjectIdentifier(T.self) == plan.typeID {
            try apply(plan, at: UnsafeMutableRawPointer(made), object: nil, requester: index)
        } else {
            // A struct inside an existential: its storage is not at `made`, and a generic copy of
            // it cannot be had without knowing its type. Say so rather than skip it.
            throw .creationFailed(key: table.keys[index], path: stack.path, underlying: StructInExistentialInjectionError(type: plan.typeName))
        }
    }

    /// Fills the pending `@Inject` fields of the object at `base`, then calls `didInject`.
    private func apply(_ plan: InjectionPlan, at base: UnsafeMutableRawPointer, object: AnyObject?, requester: Int?) throws(ContextError) {
        for field in plan.fields {
            let header = (base + field.headerOffset).assumingMemoryBound(to: InjectHeader.self)
            guard header.pointee.isPending else { continue }
            let request = InjectRequest(context: self, requester: requester, property: field.property, ownerName: plan.typeName)
            do throws(ContextError) {
                try header.pointee.fill(base + field.offset, request)
            } catch {
                // `validate()` collects the problem and goes on with the other properties.
                let stack = ThreadLocal.creationStack
                guard let problems = stack.problems else { throw error }
                problems.add(error, foundIn: stack.path.last ?? plan.typeName)
            }
        }
        if plan.isAware, let aware = object as? any InjectionAware { aware.didInject(from: self) }
    }
}

